import { describe, expect, it } from 'vitest';
import type { RunSummary } from '@shared/ipc';
import { resolveRunRef } from './run-ref';

const run = (runId: string, startedAt: number): RunSummary => ({
  runId,
  agent: 'manus',
  task: 't',
  model: 'm',
  startedAt,
  state: 'FINISHED',
  steps: 1,
  maxSteps: 20,
  usage: { prompt: 0, completion: 0 },
});
const runs = [
  run('20250101T100000-aaaa1111', 1),
  run('20250101T100000-aaab2222', 2),
  run('20250102T090000-cccc3333', 3),
];

describe('resolveRunRef', () => {
  it('takes a full id, a unique prefix and "last"', () => {
    expect(resolveRunRef('20250101T100000-aaaa1111', runs)).toBe('20250101T100000-aaaa1111');
    expect(resolveRunRef('20250102', runs)).toBe('20250102T090000-cccc3333');
    expect(resolveRunRef('20250101T100000-aaab', runs)).toBe('20250101T100000-aaab2222');
    expect(resolveRunRef('last', runs)).toBe('20250102T090000-cccc3333');
  });

  it('lists the candidates of an ambiguous prefix and says when nothing matches', () => {
    expect(() => resolveRunRef('20250101T100000-aaa', runs)).toThrow(
      /matches 2 runs \(20250101T100000-aaaa1111, 20250101T100000-aaab2222\)/,
    );
    expect(() => resolveRunRef('2024', runs)).toThrow(/no run with id 2024/);
    expect(() => resolveRunRef('last', [])).toThrow(/no runs yet/);
  });
});
