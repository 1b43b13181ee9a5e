/**
 * The "N files changed" counts of a run's steps, from real host checkpoints of a folder:
 * a step that only touched a file again with the same bytes, or changed nothing, counts 0
 * (its timeline row gets no chip); folders do not count; a new checkpoint is counted on the
 * next ask.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COUNTED_RUNS_KEPT, StepChangeCounter } from './step-change-counts';
import { CheckpointedFolder } from './testing/checkpointed-folder';
import { WorkspaceHistory } from './workspace-history';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('StepChangeCounter', () => {
  it('counts what each step added, changed and deleted; a step that changed nothing counts 0', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'wb-counts-ws-'));
    const run = new CheckpointedFolder(folder);
    const counter = new StepChangeCounter(new WorkspaceHistory(run.store));
    writeFileSync(join(folder, 'a.txt'), 'a\n');
    mkdirSync(join(folder, 'sub'));
    writeFileSync(join(folder, 'sub', 'b.txt'), 'b\n');
    await run.checkpoint(1);
    await sleep(30);
    // step 2: touched again with the same bytes, and an empty folder: no file changed
    writeFileSync(join(folder, 'a.txt'), readFileSync(join(folder, 'a.txt')));
    mkdirSync(join(folder, 'empty'));
    await run.checkpoint(2);
    await sleep(30);
    // step 3: nothing at all
    await run.checkpoint(3);
    await sleep(30);
    writeFileSync(join(folder, 'a.txt'), 'a changed\n');
    rmSync(join(folder, 'sub', 'b.txt'));
    writeFileSync(join(folder, 'c.txt'), 'c\n');
    await run.checkpoint(4);

    expect(counter.counts(run.runId)).toEqual([
      { step: 1, added: 2, changed: 0, deleted: 0 },
      { step: 2, added: 0, changed: 0, deleted: 0 },
      { step: 3, added: 0, changed: 0, deleted: 0 },
      { step: 4, added: 1, changed: 1, deleted: 1 },
    ]);

    await sleep(30);
    writeFileSync(join(folder, 'd.txt'), 'd\n');
    await run.checkpoint(5);
    expect(counter.counts(run.runId).at(-1)).toEqual({ step: 5, added: 1, changed: 0, deleted: 0 });
  });

  it('answers nothing for a run without checkpoints', () => {
    const run = new CheckpointedFolder(mkdtempSync(join(tmpdir(), 'wb-counts-none-')));
    expect(new StepChangeCounter(new WorkspaceHistory(run.store)).counts(run.runId)).toEqual([]);
  });

  it('keeps the counts of a bounded number of runs, the most recently asked', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'wb-counts-many-'));
    const run = new CheckpointedFolder(folder);
    writeFileSync(join(folder, 'a.txt'), 'a\n');
    await run.checkpoint(1);
    const history = new WorkspaceHistory(run.store);
    let located = 0;
    const stateAt = history.stateAt.bind(history);
    history.stateAt = (...args: Parameters<typeof stateAt>) => {
      located++;
      return stateAt(...args);
    };
    const counter = new StepChangeCounter(history);
    expect(counter.counts(run.runId)).toHaveLength(1);
    // other runs asked (without checkpoints: nothing to count, an entry each)
    for (let i = 0; i < COUNTED_RUNS_KEPT * 2; i++) counter.counts(`other-${i}`);
    expect(counter.runsHeld).toBe(COUNTED_RUNS_KEPT);
    // the first run was dropped: asked again, its step is counted again
    const before = located;
    expect(counter.counts(run.runId)).toEqual([{ step: 1, added: 1, changed: 0, deleted: 0 }]);
    expect(located).toBeGreaterThan(before);
    // and kept now: a second ask locates nothing
    const after = located;
    counter.counts(run.runId);
    expect(located).toBe(after);
  });
});
