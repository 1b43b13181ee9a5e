/**
 * The batch report's cells (issue 25 item 6): the verdicts are the history's labels, and
 * the figures are what one run took (the mean, said as such), never a sum over repeats
 * that reads like one run.
 */
import { describe, expect, it } from 'vitest';
import type { BatchCell, BatchCellRun } from '@shared/domain/batch';
import { formatCell } from './batch-report';

const run = (repeat: number, extra: Partial<BatchCellRun> = {}): BatchCellRun => ({
  key: `t0-p0-r${repeat}`,
  repeat,
  runId: `r${repeat}`,
  status: 'done',
  steps: 1,
  tokens: 74,
  durationMs: 600,
  stuck: 0,
  ...extra,
});

const cell = (extra: Partial<BatchCell>): BatchCell => ({
  taskIndex: 0,
  profileIndex: 0,
  runs: [run(0), run(1)],
  ended: 2,
  finished: 2,
  verdicts: { finished_with_errors: 2 },
  checksPassed: 0,
  checksRun: 0,
  steps: 2,
  tokens: 148,
  durationMs: 1_200,
  stuck: 0,
  ...extra,
});

describe('a batch report cell', () => {
  it('says the verdicts and the mean per run, with how many runs it is the mean of', () => {
    expect(formatCell(cell({}))).toBe(
      '2 finished with tool errors · per run 1 step, 74 tok, 0.6 s (mean of 2)',
    );
  });

  it("gives one run's own figures, the checks, stuck detections and what is still to come", () => {
    const text = formatCell(
      cell({
        runs: [run(0), run(1, { status: 'running' }), run(2, { status: 'queued' })],
        ended: 1,
        finished: 0,
        verdicts: { error: 1 },
        steps: 3,
        tokens: 120,
        durationMs: 4_000,
        stuck: 2,
        checksRun: 1,
      }),
    );
    expect(text).toBe(
      '1 error · 3 steps, 120 tok, 4.0 s · check 0/1 · stuck 2× · 1 running · 1 run queued',
    );
  });

  it('says when no run ended yet', () => {
    expect(
      formatCell(cell({ runs: [run(0, { status: 'running' })], ended: 0, verdicts: {}, steps: 0 })),
    ).toBe('no run ended · 1 running');
  });
});
