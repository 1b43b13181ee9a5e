import { describe, expect, it, vi } from 'vitest';
import { history, plainStep } from '@shared/compare/testing/history';
import { MemoryRunHistory } from './run-history';
import { RunComparer } from './run-compare';

function store(runs: Record<string, ReturnType<typeof history>>) {
  const h = new MemoryRunHistory();
  for (const events of Object.values(runs)) for (const e of events) h.append(e, JSON.stringify(e));
  return h;
}

describe('RunComparer', () => {
  it('folds each run once and reuses it until the run moves on', () => {
    const a = history('a', [1, 2, 3].map(plainStep));
    const live = history('b', [1, 2].map(plainStep), { isUnfinished: true });
    const h = store({ a, b: live.slice(0, -3) });
    const read = vi.spyOn(h, 'read');
    const comparer = new RunComparer(h, (id) => id === 'b');

    const first = comparer.diff('a', 'b');
    expect(first.b.outcome).toBe('running');
    expect(read).toHaveBeenCalledTimes(2);
    comparer.compare(['b', 'a']);
    comparer.diff('b', 'a');
    expect(read).toHaveBeenCalledTimes(2);

    // the live run goes on: only it is read again
    for (const e of live.slice(-3)) h.append(e, JSON.stringify(e));
    const later = comparer.diff('a', 'b');
    expect(read).toHaveBeenCalledTimes(3);
    expect(later.stepsB.filter((s) => s.kind === 'step')).toHaveLength(2);
  });

  it('refuses unknown runs, duplicates and too many runs with the reason', () => {
    const comparer = new RunComparer(store({ a: history('a', []) }));
    expect(() => comparer.diff('a', 'zz')).toThrow('No run with id zz');
    expect(() => comparer.compare(['a', 'a'])).toThrow('A run is listed twice');
    expect(() => comparer.compare(['a'])).toThrow('Compare takes 2 to 12 runs, got 1');
  });
});
