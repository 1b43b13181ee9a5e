import { describe, expect, it } from 'vitest';
import { resolveLlmProfile } from '../config/resolve';
import { parseConfigText } from '../config/load';
import { withRunProfile } from './run-profile';

describe('withRunProfile', () => {
  const config = parseConfigText(
    '[llm]\nmodel = "base"\n[llm.swe]\nmodel = "own"\n[llm.fast]\nmodel = "quick"\n',
    'config.toml',
  );

  it("uses the named profile instead of the agent's own, for this run only", () => {
    expect(resolveLlmProfile(config, 'swe').model).toBe('own');
    expect(resolveLlmProfile(withRunProfile(config, 'swe', 'fast'), 'swe').model).toBe('quick');
    expect(resolveLlmProfile(withRunProfile(config, 'swe', 'default'), 'swe').model).toBe('base');
    expect(withRunProfile(config, 'swe', undefined)).toBe(config);
    expect(resolveLlmProfile(config, 'swe').model).toBe('own');
  });

  it('refuses a profile that does not exist, listing those that do', () => {
    expect(() => withRunProfile(config, 'swe', 'nope')).toThrow(
      /no profile \[llm\.nope\].*default, swe, fast/,
    );
  });
});
