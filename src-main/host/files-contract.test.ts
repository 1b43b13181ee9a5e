/**
 * A run's files over the real WebSocket transport with the UI's own adapter (issue 32):
 * `runs:files`, `runs:file`, `runs:changes` and `runs:patch` answer from the run's real
 * checkpoints (taken of a folder the way the recorder's host mode takes them), and a
 * path that is not in the listing is a typed `not_found`, never a read elsewhere.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointStore } from '../runtime/runs/checkpoint-store';
import { CheckpointedFolder } from '../runtime/timetravel/testing/checkpointed-folder';
import { collect, finishedOf, serve, until } from './testing/ws-contract-fixture';

describe("contract over WebSocket: a run's files", () => {
  it('runs:files, runs:file, runs:changes, runs:change-counts, runs:patch', async () => {
    const { api, home } = await serve();
    const events = collect(api);
    const { runId } = await api.startRun({ task: 'steps: 2', agent: 'toolcall' });
    await until(() => finishedOf(events, runId));
    const folder = mkdtempSync(join(tmpdir(), 'wb-files-contract-'));
    const run = new CheckpointedFolder(folder, runId, new CheckpointStore(join(home, 'runs')));
    writeFileSync(join(folder, 'bug.py'), 'x = 1 - 1\n');
    await run.checkpoint(1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    writeFileSync(join(folder, 'bug.py'), 'x = 1 + 1\n');
    writeFileSync(join(folder, 'blob.bin'), Buffer.from([0, 1, 2, 3]));
    await run.checkpoint(2);

    const tree = await api.getRunFiles({ runId, step: 2 });
    expect(tree.entries).toEqual([
      { path: 'blob.bin', kind: 'file', size: 4, change: 'added' },
      { path: 'bug.py', kind: 'file', size: 10, change: 'changed' },
    ]);
    expect(await api.getRunFile({ runId, step: 1, path: 'bug.py' })).toMatchObject({
      kind: 'text',
      text: 'x = 1 - 1\n',
    });
    expect(await api.getRunFile({ runId, step: 2, path: 'blob.bin' })).toMatchObject({
      kind: 'binary',
      size: 4,
    });
    const changes = await api.getRunChanges({ runId, to: 2 });
    expect(changes.files.map((f) => `${f.change} ${f.path}`)).toEqual([
      'added blob.bin',
      'changed bug.py',
    ]);
    expect(await api.getStepChangeCounts({ runId })).toEqual({
      steps: [
        { step: 1, added: 1, changed: 0, deleted: 0 },
        { step: 2, added: 1, changed: 1, deleted: 0 },
      ],
    });
    const patch = await api.getRunPatch({ runId });
    expect(patch).toMatchObject({ from: 0, to: 2, files: 2 });
    expect(patch.patch).toContain('+x = 1 + 1');

    await expect(api.getRunFile({ runId, step: 2, path: 'etc/passwd' })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(api.getRunFile({ runId, step: 2, path: '../bug.py' })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(
      api.getRunFiles({ runId: '20991231T000000-00000000', step: 1 }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('runs:workspaces-diff: where two runs workspaces differ, at the end and at a step of each', async () => {
    const { api, home } = await serve();
    const events = collect(api);
    const store = new CheckpointStore(join(home, 'runs'));
    const ids: string[] = [];
    for (const content of ['x = 1\n', 'x = 2\n']) {
      const { runId } = await api.startRun({ task: 'steps: 2', agent: 'toolcall' });
      await until(() => finishedOf(events, runId));
      const folder = mkdtempSync(join(tmpdir(), 'wb-files-contract-ws-'));
      const run = new CheckpointedFolder(folder, runId, store);
      writeFileSync(join(folder, 'same.py'), 'same\n');
      await run.checkpoint(1);
      await new Promise((resolve) => setTimeout(resolve, 30));
      writeFileSync(join(folder, 'x.py'), content);
      await run.checkpoint(2);
      ids.push(runId);
    }
    const [a, b] = ids as [string, string];
    const end = await api.diffRunWorkspaces({ a, b });
    expect(end.a).toEqual({ runId: a, step: 2, asOf: 2 });
    expect(end.files).toEqual([
      expect.objectContaining({ path: 'x.py', difference: 'changed', sizeA: 6, sizeB: 6 }),
    ]);
    expect((await api.diffRunWorkspaces({ a, b, stepA: 1, stepB: 1 })).files).toEqual([]);
    expect((await api.diffRunWorkspaces({ a, b, stepA: 1, stepB: 2 })).files).toEqual([
      expect.objectContaining({ path: 'x.py', difference: 'added' }),
    ]);
    const pairs = [
      { row: 3, stepA: 1, stepB: 1 },
      { row: 4, stepA: 2, stepB: 2 },
    ];
    const first = await api.firstWorkspaceDivergence({ a, b, pairs });
    expect(first.first).toMatchObject({ row: 4, stepA: 2, stepB: 2 });
    expect(first.first?.diff.files.map((f) => f.path)).toEqual(['x.py']);
    expect(
      (await api.firstWorkspaceDivergence({ a, b, pairs: pairs.slice(0, 1) })).first,
    ).toBeNull();
    await expect(api.diffRunWorkspaces({ a, b: '20991231T000000-00000000' })).rejects.toMatchObject(
      { code: 'not_found' },
    );
    await expect(api.diffRunWorkspaces({ a, b, stepA: -1 })).rejects.toMatchObject({
      code: 'invalid_input',
    });
  });
});
