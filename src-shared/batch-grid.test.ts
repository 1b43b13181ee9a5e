import { describe, expect, it } from 'vitest';
import type { BatchPlan, BatchState } from './domain/batch';
import type { RunSummary } from './domain/runs';
import { batchGrid, batchProgress } from './batch-grid';

const plan: BatchPlan = {
  version: 1,
  batchId: 'b-1',
  createdAt: 0,
  agent: 'swe',
  tasks: [{ task: 'a' }],
  profiles: ['x', null],
  repeat: 2,
  concurrency: 2,
  items: [
    { key: 't0-p0-r0', taskIndex: 0, profileIndex: 0, repeat: 0 },
    { key: 't0-p1-r0', taskIndex: 0, profileIndex: 1, repeat: 0 },
    { key: 't0-p0-r1', taskIndex: 0, profileIndex: 0, repeat: 1 },
    { key: 't0-p1-r1', taskIndex: 0, profileIndex: 1, repeat: 1 },
  ],
};

const summary = (runId: string, extra: Partial<RunSummary>): RunSummary => ({
  runId,
  agent: 'swe',
  task: 'a',
  model: 'm',
  startedAt: 1_000,
  state: 'FINISHED',
  steps: 3,
  maxSteps: 10,
  usage: { prompt: 100, completion: 20 },
  ...extra,
});

const runs = new Map<string, RunSummary>([
  [
    'r1',
    summary('r1', {
      finishedAt: 5_000,
      outcome: 'finished',
      check: { ok: true, exitCode: 0 },
      health: { toolCalls: 1, toolErrors: 0, stuck: 2, duplicates: 0, retries: 0 },
    }),
  ],
  ['r2', summary('r2', { finishedAt: 3_000, outcome: 'error', check: { ok: false, exitCode: 1 } })],
  ['r3', summary('r3', {})],
]);

const state: BatchState = {
  version: 1,
  batchId: 'b-1',
  updatedAt: 0,
  items: {
    't0-p0-r0': { status: 'done', runId: 'r1' },
    't0-p1-r0': { status: 'done', runId: 'r2' },
    't0-p0-r1': { status: 'running', runId: 'r3' },
    't0-p1-r1': { status: 'queued' },
  },
};

describe('batchGrid', () => {
  it("adds up each cell's runs from their summaries", () => {
    const grid = batchGrid(plan, state, (id) => runs.get(id), 'swe');
    expect(grid.profiles).toEqual(['x', 'swe']);
    expect(grid.cells[0]?.[0]).toMatchObject({
      finished: 1,
      checksRun: 1,
      checksPassed: 1,
      steps: 6,
      tokens: 240,
      durationMs: 4_000,
      stuck: 2,
    });
    expect(grid.cells[0]?.[0]?.runs.map((r) => r.status)).toEqual(['done', 'running']);
    expect(grid.cells[0]?.[1]).toMatchObject({
      finished: 1,
      checksRun: 1,
      checksPassed: 0,
      tokens: 120,
    });
    expect(grid.cells[0]?.[1]?.runs[1]).toEqual({
      key: 't0-p1-r1',
      repeat: 1,
      status: 'queued',
      steps: 0,
      tokens: 0,
      stuck: 0,
    });
  });
});

describe('batchProgress', () => {
  it('counts done, running and queued; the ETA is the mean run time over the slots', () => {
    // two runs done in 4 s and 2 s: 3 s each, 2 left over 2 slots
    expect(batchProgress(plan, state, (id) => runs.get(id))).toEqual({
      batchId: 'b-1',
      total: 4,
      done: 2,
      running: 1,
      queued: 1,
      etaMs: 3_000,
      isStopped: false,
      isComplete: false,
    });
    expect(
      batchProgress(plan, { ...state, isStopped: true }, (id) => runs.get(id)),
    ).not.toHaveProperty('etaMs');
  });
});
