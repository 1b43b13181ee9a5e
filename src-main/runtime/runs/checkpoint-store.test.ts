/**
 * Snapshots beside the history: chains of archives per step, sizes, removal with the
 * run, and `[history] snapshot_budget` evicting the oldest runs' snapshots with a note
 * that the run's `runs:get` answer carries.
 */
import { existsSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEventStamper } from '@shared/events';
import { CheckpointStore, type CheckpointMeta } from './checkpoint-store';
import { MemoryRunHistory } from './run-history';
import { RunManager } from './run-manager';

const A = '20260101T000000-aaaaaaaa';
const B = '20260102T000000-bbbbbbbb';
const C = '20260103T000000-cccccccc';

function take(store: CheckpointStore, runId: string, step: number, bytes: number, isFull: boolean) {
  writeFileSync(store.archivePath(runId, step), Buffer.alloc(bytes));
  const meta: CheckpointMeta = {
    agent: 'manus',
    step,
    isFull,
    bytes,
    manifest: [{ path: 'a', kind: 'f' }],
    processes: [],
    takenAt: 0,
    containerId: 'c',
  };
  store.save(runId, meta);
}

describe('CheckpointStore', () => {
  it('gives the chain of archives that rebuilds a step', () => {
    const store = new CheckpointStore(mkdtempSync(join(tmpdir(), 'wb-ckpt-')));
    take(store, A, 1, 10, true);
    take(store, A, 2, 10, false);
    take(store, A, 3, 10, true); // a new container starts a new chain
    take(store, A, 4, 10, false);
    expect(store.chain(A, 2).metas.map((m) => m.step)).toEqual([1, 2]);
    expect(store.chain(A, 4).metas.map((m) => m.step)).toEqual([3, 4]);
    expect(() => store.chain(A, 5)).toThrow(/no sandbox snapshot at step 5/);
    expect(store.sizeOf(A)).toBeGreaterThan(40);
    store.remove(A);
    expect(store.list(A)).toEqual([]);
    expect(store.has(A)).toBe(false);
  });

  it('evicts the oldest runs first to keep the budget, never the run taking them, with a note', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-ckpt-'));
    const store = new CheckpointStore(dir);
    take(store, A, 1, 4000, true);
    take(store, B, 1, 4000, true);
    take(store, C, 1, 4000, true);
    const evicted = store.enforceBudget(9000, C);
    expect(evicted.map((e) => e.runId)).toEqual([A]);
    expect(store.evictedNote(A)).toMatch(/snapshot_budget .* can no longer be forked/);
    expect(() => store.chain(A, 1)).toThrow(/snapshot_budget/);
    expect(store.list(B)).toHaveLength(1);
    // The current run alone over the budget keeps its snapshots.
    expect(store.enforceBudget(10, C).map((e) => e.runId)).toEqual([B]);
    expect(store.list(C)).toHaveLength(1);

    // The note reaches the run's snapshot warnings (what the UI and runs:get show).
    const history = new MemoryRunHistory();
    const stamped = createEventStamper(A).stamp({
      type: 'run.started',
      agent: 'manus',
      task: 't',
      maxSteps: 3,
      model: 'm',
      sessionId: 's',
    });
    history.append(stamped, JSON.stringify(stamped));
    const runs = new RunManager(async () => Promise.reject(new Error('unused')), {
      history,
      checkpoints: store,
    });
    expect(runs.snapshot(A)?.warnings.join(' ')).toMatch(/snapshot_budget/);
  });

  it('lists a step only once its archive and record are both in place; a partial one never', () => {
    const store = new CheckpointStore(mkdtempSync(join(tmpdir(), 'wb-ckpt-')));
    take(store, A, 1, 10, true);
    // a snapshot being written (or cut short): only its partial archive
    const partial = store.partialArchivePath(A, 2);
    writeFileSync(partial, Buffer.alloc(100));
    expect(store.list(A).map((m) => m.step)).toEqual([1]);
    expect(() => store.chain(A, 2)).toThrow(/no sandbox snapshot at step 2/);
    expect(store.sizeOf(A)).toBeGreaterThan(100); // it counts while it is on disk

    const meta: CheckpointMeta = {
      agent: 'manus',
      step: 2,
      isFull: false,
      bytes: 100,
      manifest: [],
      processes: [],
      takenAt: 0,
      containerId: 'c',
    };
    store.commit(A, meta, partial);
    expect(store.chain(A, 2).archives.map((a) => a.split('/').at(-1))).toEqual([
      'step-1.tar',
      'step-2.tar',
    ]);
    expect(readdirSync(store.dirOf(A)).sort()).toEqual([
      'step-1.json',
      'step-1.tar',
      'step-2.json',
      'step-2.tar',
    ]);

    // a commit that fails (here: the archive is gone) leaves nothing of the step
    expect(() => store.commit(A, { ...meta, step: 3 }, store.partialArchivePath(A, 3))).toThrow();
    expect(readdirSync(store.dirOf(A)).filter((n) => n.startsWith('step-3'))).toEqual([]);
  });

  it('sweeps what a crashed process left: partial files of dead processes, archives without a record', () => {
    const store = new CheckpointStore(mkdtempSync(join(tmpdir(), 'wb-ckpt-')));
    take(store, A, 1, 10, true);
    const dir = store.dirOf(A);
    const dead = 2 ** 22 + 12345; // above pid_max's default: no such process
    writeFileSync(join(dir, `step-2.tar.${dead}.partial`), 'x');
    writeFileSync(join(dir, `step-2.json.${dead}.partial`), 'x');
    writeFileSync(join(dir, `step-3.tar.${process.pid}.partial`), 'x'); // this process: in progress
    writeFileSync(join(dir, 'step-4.tar'), Buffer.alloc(104)); // the old writer's leftover
    const old = new Date(Date.now() - 120_000);
    utimesSync(join(dir, 'step-4.tar'), old, old);
    writeFileSync(join(dir, 'step-5.tar'), 'x'); // a commit between its two renames
    const removed = store.sweep().map((p) => p.split('/').at(-1));
    expect(removed.sort()).toEqual(
      [`step-2.json.${dead}.partial`, `step-2.tar.${dead}.partial`, 'step-4.tar'].sort(),
    );
    expect(existsSync(join(dir, 'step-1.tar'))).toBe(true);
    expect(existsSync(join(dir, `step-3.tar.${process.pid}.partial`))).toBe(true);
    expect(existsSync(join(dir, 'step-5.tar'))).toBe(true);
    expect(store.list(A).map((m) => m.step)).toEqual([1]);
  });
});
