/** `[agent.NAME] breakpoints` and `approve_tools`, and the profile prices, as config.toml keys. */
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfigText } from './load';
import { resolveAgentSettings, resolveLlmProfile } from './resolve';

describe('debugger keys in config.toml', () => {
  it('resolves an agent’s saved breakpoints, approval tools and a profile’s prices', () => {
    const config = parseConfigText(
      [
        '[llm]',
        'model = "gpt-x"',
        'input_price = 2.5',
        'output_price = 10',
        '[agent.swe]',
        'breakpoints = ["tool:bash:/rm\\\\s/", "stuck", "tokens:50k"]',
        'approve_tools = ["bash", "str_replace_editor"]',
      ].join('\n'),
      'config.toml',
    );
    expect(resolveAgentSettings(config, 'swe')).toMatchObject({
      breakpoints: ['tool:bash:/rm\\s/', 'stuck', 'tokens:50k'],
      approveTools: ['bash', 'str_replace_editor'],
    });
    expect(resolveAgentSettings(config, 'manus')).toMatchObject({
      breakpoints: [],
      approveTools: [],
    });
    expect(resolveLlmProfile(config, 'swe', {})).toMatchObject({
      inputPrice: 2.5,
      outputPrice: 10,
    });
  });

  it('names the key, the line and what is allowed when a breakpoint does not parse', () => {
    const text = '[agent.manus]\nmax_steps = 5\nbreakpoints = ["stuck", "loop"]\n';
    let caught: unknown;
    try {
      parseConfigText(text, 'config.toml');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).issues).toEqual([
      {
        path: 'agent.manus.breakpoints.1',
        line: 3,
        message: expect.stringContaining(
          'Breakpoint "loop": unknown kind "loop" (one of tool:NAME',
        ),
      },
    ]);
  });
});
