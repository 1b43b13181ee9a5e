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
import { StepChangeCounter } from './step-change-counts';
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
});
