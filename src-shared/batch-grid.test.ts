import { describe, expect, it } from 'vitest';
import type { BatchPlan, BatchState } from './domain/batch';
import type { RunSummary } from './domain/runs';
import { batchGrid, batchProgress, cellFigures, meanText } from './batch-grid';
import { runVerdict, tallyParts } from './run-outcome';

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
  it("adds up each cell's ended runs from their summaries; a run still going is not in the totals", () => {
    const grid = batchGrid(plan, state, (id) => runs.get(id), 'swe');
    expect(grid.profiles).toEqual(['x', 'swe']);
    expect(grid.cells[0]?.[0]).toMatchObject({
      ended: 1,
      finished: 1,
      verdicts: { finished: 1 },
      checksRun: 1,
      checksPassed: 1,
      // r1 alone: r3 (running, 3 steps so far) is not a run's figure yet
      steps: 3,
      tokens: 120,
      durationMs: 4_000,
      stuck: 2,
    });
    expect(grid.cells[0]?.[0]?.runs.map((r) => r.status)).toEqual(['done', 'running']);
    expect(grid.cells[0]?.[1]).toMatchObject({
      ended: 1,
      finished: 0,
      verdicts: { error: 1 },
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

  it('labels each run with the verdict the history shows: a tool error is not a plain "finished"', () => {
    const withErrors = summary('e1', {
      finishedAt: 2_000,
      outcome: 'finished',
      steps: 1,
      usage: { prompt: 60, completion: 14 },
      health: { toolCalls: 2, toolErrors: 1, stuck: 0, duplicates: 0, retries: 0 },
    });
    const clean = summary('e2', {
      finishedAt: 3_000,
      outcome: 'finished',
      steps: 2,
      usage: { prompt: 60, completion: 14 },
      health: { toolCalls: 2, toolErrors: 0, stuck: 0, duplicates: 0, retries: 0 },
    });
    const reported = summary('e3', {
      finishedAt: 2_000,
      outcome: 'finished',
      terminateStatus: 'failure',
    });
    const byId = new Map([withErrors, clean, reported].map((s) => [s.runId, s]));
    const grid = batchGrid(
      plan,
      {
        ...state,
        items: {
          't0-p0-r0': { status: 'done', runId: 'e1' },
          't0-p0-r1': { status: 'done', runId: 'e2' },
          't0-p1-r0': { status: 'done', runId: 'e3' },
          't0-p1-r1': { status: 'queued' },
        },
      },
      (id) => byId.get(id),
    );
    const cell = grid.cells[0]?.[0];
    expect(cell?.runs.map((r) => r.verdict?.label)).toEqual([
      runVerdict(withErrors).label,
      'finished',
    ]);
    expect(cell?.runs[0]?.verdict).toEqual({
      kind: 'finished_with_errors',
      label: 'finished with 1 tool error',
      tone: 'warn',
    });
    expect(cell?.verdicts).toEqual({ finished_with_errors: 1, finished: 1 });
    expect(tallyParts(cell?.verdicts ?? {}).map((p) => p.text)).toEqual([
      '1 finished with tool errors',
      '1 finished',
    ]);
    // the agent saying it failed is not a finish the batch counts as good (exit 1)
    expect(grid.cells[0]?.[1]).toMatchObject({
      ended: 1,
      finished: 0,
      verdicts: { agent_failed: 1 },
    });

    // "3 steps 148 tok" was a sum over two repeats: a run's own figures are the mean
    expect(cell).toMatchObject({ steps: 3, tokens: 148, durationMs: 3_000 });
    expect(cellFigures(cell!)).toEqual({
      runs: 2,
      mean: { steps: 1.5, tokens: 74, durationMs: 1_500 },
      total: { steps: 3, tokens: 148, durationMs: 3_000 },
    });
    expect(meanText(1.5)).toBe('1.5');
    expect(meanText(2)).toBe('2');
    expect(cellFigures({ ...cell!, ended: 0 })).toBeUndefined();
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
