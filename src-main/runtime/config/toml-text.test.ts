import { describe, expect, it } from 'vitest';
import { parse } from 'smol-toml';
import { findKeyLine, setTomlKey, splitDottedKey } from './toml-text';

const TEXT = `top = 1
[llm]
model = "a" # note
[ llm . "my.profile" ]
model = "b"

[agent.manus]
'max_steps' = 3
`;

describe('toml-text', () => {
  it('splits dotted keys with quotes', () => {
    expect(splitDottedKey(' llm . "my.profile" ')).toEqual(['llm', 'my.profile']);
    expect(splitDottedKey("a.'b c'.d")).toEqual(['a', 'b c', 'd']);
  });

  it('finds the line of a key, or of its table when the key is not written', () => {
    expect(findKeyLine(TEXT, ['top'])).toBe(1);
    expect(findKeyLine(TEXT, ['llm', 'model'])).toBe(3);
    expect(findKeyLine(TEXT, ['llm', 'my.profile', 'model'])).toBe(5);
    expect(findKeyLine(TEXT, ['agent', 'manus', 'max_steps'])).toBe(8);
    expect(findKeyLine(TEXT, ['agent', 'manus', 'missing'])).toBe(7);
    expect(findKeyLine(TEXT, ['nowhere', 'x'])).toBeUndefined();
  });

  it('sets, replaces (keeping a trailing comment) and removes keys, leaving other lines alone', () => {
    let text = setTomlKey(TEXT, ['llm'], 'model', 'z');
    expect(text.split('\n')[2]).toBe('model = "z" # note');
    text = setTomlKey(text, ['llm'], 'temperature', 0.25);
    text = setTomlKey(text, ['agent', 'manus'], 'max_steps', undefined);
    text = setTomlKey(text, ['agent', 'swe'], 'max_steps', 9);
    text = setTomlKey(text, ['llm', 'my.profile'], 'stream', false);
    expect(parse(text)).toEqual({
      top: 1,
      llm: { model: 'z', temperature: 0.25, 'my.profile': { model: 'b', stream: false } },
      agent: { manus: {}, swe: { max_steps: 9 } },
    });
    expect(text).toContain('[agent.swe]\nmax_steps = 9\n');
  });

  it('writes strings TOML can read back exactly', () => {
    const tricky = 'quote " backslash \\ newline \n tab \t unicode ✓';
    expect(parse(setTomlKey('', ['llm'], 'model', tricky))).toEqual({ llm: { model: tricky } });
  });
});
