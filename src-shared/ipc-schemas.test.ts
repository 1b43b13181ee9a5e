import { describe, expect, it } from 'vitest';
import { REQUEST_CHANNELS } from './ipc';
import { parseRequest, requestSchemas } from './ipc-schemas';

describe('request schemas', () => {
  it('cover every request channel of the contract', () => {
    expect(Object.keys(requestSchemas).sort()).toEqual([...REQUEST_CHANNELS].sort());
  });

  it('accept a valid run:start and reject malformed ones with the field path', () => {
    expect(parseRequest('run:start', { task: 'do it', agent: 'swe', maxSteps: 5 })).toEqual({
      ok: true,
      value: { task: 'do it', agent: 'swe', maxSteps: 5 },
    });
    const cases: [unknown, string][] = [
      [undefined, '(input)'],
      [{ task: '' }, 'task'],
      [{ task: '   ' }, 'task'],
      [{ task: 'x', agent: 'root' }, 'agent'],
      [{ task: 'x', maxSteps: 0 }, 'maxSteps'],
      [{ task: 'x', maxSteps: 2.5 }, 'maxSteps'],
      [{ task: 'x', extra: true }, '(input)'],
    ];
    for (const [input, path] of cases) {
      const result = parseRequest('run:start', input);
      expect(result.ok, JSON.stringify(input)).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe('invalid_input');
        expect(result.error.issues?.map((i) => i.path)).toContain(path);
      }
    }
  });
});
