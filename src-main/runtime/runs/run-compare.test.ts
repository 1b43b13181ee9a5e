import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { history, plainStep } from '@shared/compare/testing/history';
import { MemoryRunHistory } from './run-history';
import { RunComparer } from './run-compare';
import { RunStore } from './run-store';

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

  it('names renamed runs by their title, read again after a rename without folding again', () => {
    const store = new RunStore(mkdtempSync(join(tmpdir(), 'wb-compare-')), { onWarning: () => {} });
    const [a, b] = ['20260101T000000-aaaaaaaa', '20260101T000100-bbbbbbbb'];
    for (const id of [a, b]) {
      for (const e of history(id, [plainStep(1)], { task: 'Fix the failing test' })) {
        store.append(e, JSON.stringify(e));
      }
    }
    store.close();
    const comparer = new RunComparer(store);
    const read = vi.spyOn(store, 'readText');
    expect(comparer.diff(a, b).a.title).toBeUndefined();
    store.rename(a, 'Baseline on gpt-4o');
    const diff = comparer.diff(a, b);
    expect(diff.a).toMatchObject({ title: 'Baseline on gpt-4o', task: 'Fix the failing test' });
    expect(diff.b.title).toBeUndefined();
    expect(comparer.compare([a, b]).runs[0]!.facts.title).toBe('Baseline on gpt-4o');
    // a rename changes no event: the folded runs were reused
    expect(read).toHaveBeenCalledTimes(2);
    store.rename(a, '');
    expect(comparer.diff(a, b).a.title).toBeUndefined();
  });
});
