import { existsSync, mkdtempSync, readdirSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { diffRuns, digestRun } from '@shared/compare/diff-runs';
import { history, plainStep, type StepSpec } from '@shared/compare/testing/history';
import type { RunEvent } from '@shared/events';
import { RunComparer } from './run-compare';
import { RunStore } from './run-store';

const A = '20260101T000000-aaaaaaaa';
const B = '20260101T000100-bbbbbbbb';
const steps = (n: number): StepSpec[] => Array.from({ length: n }, (_, i) => plainStep(i + 1));

function storeWith(runs: Record<string, RunEvent[]>): { dir: string; store: RunStore } {
  const dir = mkdtempSync(join(tmpdir(), 'wb-digests-'));
  const store = new RunStore(dir, { onWarning: () => {} });
  for (const events of Object.values(runs))
    for (const e of events) store.append(e, JSON.stringify(e));
  store.close();
  return { dir, store };
}

const reopen = (dir: string) => new RunStore(dir, { onWarning: () => {} });

function divergent(): RunEvent[] {
  const b = steps(12);
  b[4] = { ...b[4]!, reply: 'Step 5: a different idea.' };
  return history(B, b, { startTs: 1_800_000_000_000 });
}

describe('step digests stored beside a history', () => {
  it('are made on a run’s first comparison, then a comparison reads no history', () => {
    const a = history(A, steps(12));
    const b = divergent();
    const { dir, store } = storeWith({ [A]: a, [B]: b });
    const first = new RunComparer(store).diff(A, B);
    expect(
      readdirSync(dir)
        .filter((f) => f.includes('.compare.'))
        .sort(),
    ).toEqual([
      `${A}.compare.json`,
      `${A}.compare.steps`,
      `${B}.compare.json`,
      `${B}.compare.steps`,
    ]);

    // another process: the same answer, from the stored digests alone
    const later = reopen(dir);
    const readText = vi.spyOn(later, 'readText');
    const read = vi.spyOn(later, 'read');
    const comparer = new RunComparer(later);
    const again = comparer.diff(A, B);
    expect(again).toEqual(first);
    expect(comparer.steps(B, 4, 7)).toEqual(digestRun({ events: b }).steps.slice(4, 7));
    expect(readText).not.toHaveBeenCalled();
    expect(read).not.toHaveBeenCalled();

    // and it is the comparison of the events themselves, each step by number
    const whole = diffRuns({ events: a }, { events: b });
    expect(again.rows).toEqual(whole.rows);
    expect(again.stepsB).toEqual(
      whole.stepsB.map(({ kind, step, agent }) => ({ kind, step, agent })),
    );
  });

  it('are made again when the history changed, or when they are damaged', () => {
    const { dir, store } = storeWith({ [A]: history(A, steps(3)), [B]: divergent() });
    new RunComparer(store).diff(A, B);
    // the run was continued: its history grew after the digests were made
    const more = history(A, steps(4)).slice(-4);
    appendFileSync(join(dir, `${A}.jsonl`), more.map((e) => JSON.stringify(e)).join('\n') + '\n');
    writeFileSync(join(dir, `${B}.compare.json`), '{"version":1,"heads":');
    const later = reopen(dir);
    const readText = vi.spyOn(later, 'readText');
    const diff = new RunComparer(later).diff(A, B);
    expect(readText.mock.calls.map(([id]) => id).sort()).toEqual([A, B]);
    expect(diff.b.runId).toBe(B);
    // stored anew: the next comparison reads nothing
    const third = reopen(dir);
    const readAgain = vi.spyOn(third, 'readText');
    expect(new RunComparer(third).diff(A, B)).toEqual(diff);
    expect(readAgain).not.toHaveBeenCalled();
  });

  it('are stored when a run finishes (`store`), never for a live run, and go with the run', () => {
    const { dir, store } = storeWith({ [A]: history(A, steps(2)), [B]: divergent() });
    const comparer = new RunComparer(store, (id) => id === B);
    comparer.store(A);
    comparer.store(B);
    expect(existsSync(join(dir, `${A}.compare.json`))).toBe(true);
    expect(existsSync(join(dir, `${B}.compare.json`))).toBe(false);
    expect(store.remove(A)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.startsWith(A))).toEqual([]);
  });

  it('serve pages within the run and refuse bad ranges with the reason', () => {
    const { store } = storeWith({ [A]: history(A, steps(3)) });
    const comparer = new RunComparer(store);
    expect(comparer.steps(A, 0, 100).map((s) => s.kind)).toEqual([
      'start',
      'step',
      'step',
      'step',
      'end',
    ]);
    expect(comparer.steps(A, 9, 12)).toEqual([]);
    expect(() => comparer.steps(A, 3, 1)).toThrow('Bad step range 3..1');
    expect(() => comparer.steps(A, 0, 501)).toThrow('At most 500 steps a page, asked 501');
    expect(() => comparer.steps('20260101T000000-zzzzzzzz', 0, 1)).toThrow('No run with id');
  });
});
