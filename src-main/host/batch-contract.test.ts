/**
 * The batch entries of the contract over the real WebSocket transport with the UI's own
 * adapter: start (with its validation), the `batch:progress` push, the grid, the list,
 * stop and resume.
 */
import { describe, expect, it } from 'vitest';
import type { BatchProgress } from '@shared/ipc';
import { serve, until } from './testing/ws-contract-fixture';

const CONFIG = '[llm]\nmodel = "m"\n[llm.fast]\nmodel = "fast"\n';

describe('contract over WebSocket: batch:*', () => {
  it('batch:start runs the grid, pushes batch:progress, and batch:get / batch:list tell it', async () => {
    const { api } = await serve(CONFIG);
    const pushes: BatchProgress[] = [];
    api.onBatchProgress((p) => pushes.push(p));
    const { batchId } = await api.startBatch({
      agent: 'toolcall',
      tasks: [{ task: 'steps: 2' }, { task: 'steps: 3' }],
      profiles: ['default', 'fast'],
      repeat: 1,
      concurrency: 2,
    });
    await until(() => pushes.find((p) => p.batchId === batchId && p.isComplete));
    expect(pushes.some((p) => p.running > 0)).toBe(true);
    const grid = await api.getBatch({ batchId });
    expect(grid.profiles).toEqual(['default', 'fast']);
    expect(grid.cells.map((row) => row.map((c) => c.steps))).toEqual([
      [2, 2],
      [3, 3],
    ]);
    const runIds = grid.cells.flat().flatMap((c) => c.runs.map((r) => r.runId));
    const runs = await api.listRuns({});
    for (const runId of runIds)
      expect(runs.find((r) => r.runId === runId)?.batch?.batchId).toBe(batchId);
    expect(await api.listBatches({})).toMatchObject([
      { batchId, agent: 'toolcall', progress: { total: 4, done: 4 } },
    ]);
    // a complete batch is not running: nothing to stop; a resume has nothing to run
    expect(await api.stopBatch({ batchId })).toEqual({ stopped: false });
    await api.resumeBatch({ batchId });
    await until(() => pushes.filter((p) => p.batchId === batchId && p.isComplete).length > 1);
    expect(
      (await api.getBatch({ batchId })).cells.flat().flatMap((c) => c.runs.map((r) => r.runId)),
    ).toEqual(runIds);
  });

  it('batch:stop stops a running batch; the refusals are typed', async () => {
    const { api } = await serve(CONFIG);
    const pushes: BatchProgress[] = [];
    api.onBatchProgress((p) => pushes.push(p));
    const { batchId } = await api.startBatch({
      agent: 'toolcall',
      tasks: [{ task: 'steps: 50 delay: 100' }],
      profiles: [],
      repeat: 3,
      concurrency: 1,
    });
    await until(() => pushes.find((p) => p.running === 1));
    expect(await api.stopBatch({ batchId })).toEqual({ stopped: true });
    const stopped = await until(() => pushes.find((p) => p.isStopped && p.running === 0));
    expect(stopped).toMatchObject({ done: 0, queued: 3, isComplete: false });
    await expect(
      api.startBatch({
        agent: 'toolcall',
        tasks: [{ task: 'x' }],
        profiles: ['nope'],
        repeat: 1,
        concurrency: 1,
      }),
    ).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/llm\.nope/) });
    await expect(
      api.startBatch({
        agent: 'toolcall',
        tasks: [{ task: 'x', workspace: '/' }],
        profiles: [],
        repeat: 1,
        concurrency: 1,
      }),
    ).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/too wide/) });
    await expect(api.getBatch({ batchId: 'b-none' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
