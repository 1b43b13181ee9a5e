/**
 * Two runs' workspaces compared from real checkpoints (host snapshots of two real
 * folders, in one checkpoint store): files only B has, files B lacks, files whose bytes
 * differ at the same size (only the content hash tells), an executable bit, and the same
 * bytes archived separately by each run (not a difference).
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { CheckpointStore } from '../runs/checkpoint-store';
import { CheckpointedFolder } from './testing/checkpointed-folder';
import { WorkspaceComparer } from './workspace-compare';
import { WorkspaceHistory } from './workspace-history';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('WorkspaceComparer', () => {
  const store = new CheckpointStore(mkdtempSync(join(tmpdir(), 'wb-cmp-ws-store-')));
  const folderA = mkdtempSync(join(tmpdir(), 'wb-cmp-ws-a-'));
  const folderB = mkdtempSync(join(tmpdir(), 'wb-cmp-ws-b-'));
  const runA = new CheckpointedFolder(folderA, '20261201T000000-0000aaaa', store);
  const runB = new CheckpointedFolder(folderB, '20261201T000000-0000bbbb', store);
  const comparer = new WorkspaceComparer(new WorkspaceHistory(store));

  const start = (folder: string) => {
    writeFileSync(join(folder, 'main.py'), 'print(1 + 2)\n');
    writeFileSync(join(folder, 'same.txt'), 'kept\n');
    writeFileSync(join(folder, 'run.sh'), '#!/bin/sh\necho hi\n');
    chmodSync(join(folder, 'run.sh'), 0o755);
  };

  beforeAll(async () => {
    start(folderA);
    start(folderB);
    await runA.checkpoint(1);
    await runB.checkpoint(1);
    await sleep(30);
    writeFileSync(join(folderA, 'main.py'), 'print(1 - 2)\n');
    await runA.checkpoint(2);
    // the same size as A's, other bytes: only the hash tells
    writeFileSync(join(folderB, 'main.py'), 'print(1 * 2)\n');
    writeFileSync(join(folderB, 'extra.txt'), 'only in B\n');
    rmSync(join(folderB, 'same.txt'));
    chmodSync(join(folderB, 'run.sh'), 0o644);
    mkdirSync(join(folderB, 'out'));
    await runB.checkpoint(2);
  });

  it('lists the files added in B, missing in B and changed, at the end', () => {
    const diff = comparer.diff({ runId: runA.runId }, { runId: runB.runId });
    expect(diff.a).toEqual({ runId: runA.runId, step: 2, asOf: 2 });
    expect(diff.b).toEqual({ runId: runB.runId, step: 2, asOf: 2 });
    expect(diff.unavailable).toBeUndefined();
    expect(diff.files.map((f) => `${f.difference} ${f.path}`)).toEqual([
      'added extra.txt',
      'changed main.py',
      'added out',
      'changed run.sh',
      'missing same.txt',
    ]);
    const main = diff.files.find((f) => f.path === 'main.py')!;
    expect(main).toMatchObject({
      kind: 'file',
      sizeA: 13,
      sizeB: 13,
      hashA: sha('print(1 - 2)\n'),
      hashB: sha('print(1 * 2)\n'),
    });
    expect(diff.files.find((f) => f.path === 'extra.txt')).toEqual({
      path: 'extra.txt',
      difference: 'added',
      kind: 'file',
      sizeB: 10,
      hashB: sha('only in B\n'),
    });
    expect(diff.files.find((f) => f.path === 'out')).toEqual({
      path: 'out',
      difference: 'added',
      kind: 'folder',
    });
  });

  it('finds no difference where both runs hold the same bytes in their own archives', () => {
    const diff = comparer.diff({ runId: runA.runId, step: 1 }, { runId: runB.runId, step: 1 });
    expect(diff.files).toEqual([]);
    // a step without its own checkpoint answers with the last one before it
    const later = comparer.diff({ runId: runA.runId, step: 1 }, { runId: runB.runId, step: 9 });
    expect(later.b).toEqual({ runId: runB.runId, step: 9, asOf: 2 });
    expect(later.files).toHaveLength(5);
  });

  it('names the first aligned pair of steps whose workspaces differ', () => {
    const pairs = [
      { row: 0, stepA: 1, stepB: 1 },
      { row: 1, stepA: 1, stepB: 1 },
      { row: 2, stepA: 2, stepB: 2 },
    ];
    const first = comparer.firstDivergence(runA.runId, runB.runId, pairs);
    expect(first).toMatchObject({ row: 2, stepA: 2, stepB: 2 });
    expect(first!.diff.files).toHaveLength(5);
    expect(comparer.firstDivergence(runA.runId, runB.runId, pairs.slice(0, 2))).toBeNull();
    expect(comparer.firstDivergence(runA.runId, runA.runId, pairs)).toBeNull();
  });

  it('cuts a long list and says how far', () => {
    const diff = comparer.diff({ runId: runA.runId }, { runId: runB.runId }, 2);
    expect(diff.files).toHaveLength(2);
    expect(diff.truncatedAt).toBe(2);
  });

  it('says why a run without checkpoints cannot be compared', () => {
    const none = '20261201T000000-0000cccc';
    const diff = comparer.diff({ runId: runA.runId }, { runId: none });
    expect(diff.files).toEqual([]);
    expect(diff.unavailable).toBe(
      `Run ${none} has no sandbox checkpoints: its files were not recorded`,
    );
    expect(comparer.firstDivergence(runA.runId, none, [{ row: 0, stepA: 1, stepB: 1 }])).toBeNull();
  });
});
