/**
 * The batch grid (tasks x profiles) and its progress, computed from the plan, the state
 * (which run fills which item) and the runs' summaries, which fold the runs' histories
 * (run-summary.ts). Pure: the CLI, the hosts and the UI show the same figures.
 */
import type {
  BatchCell,
  BatchCellRun,
  BatchGrid,
  BatchPlan,
  BatchProgress,
  BatchState,
} from './domain/batch';
import type { RunSummary } from './domain/runs';
import { runVerdict, verdictExitCode } from './run-outcome';

export type SummaryOf = (runId: string) => RunSummary | undefined;

export function batchProgress(
  plan: BatchPlan,
  state: BatchState,
  summaryOf: SummaryOf,
): BatchProgress {
  let done = 0;
  let running = 0;
  let spent = 0;
  let timed = 0;
  for (const item of plan.items) {
    const entry = state.items[item.key];
    if (entry?.status === 'done') {
      done += 1;
      const summary = entry.runId ? summaryOf(entry.runId) : undefined;
      const duration = summary ? durationOf(summary) : undefined;
      if (duration !== undefined) {
        spent += duration;
        timed += 1;
      }
    } else if (entry?.status === 'running') running += 1;
  }
  const total = plan.items.length;
  const left = total - done;
  const isStopped = state.isStopped === true;
  return {
    batchId: plan.batchId,
    total,
    done,
    running,
    queued: total - done - running,
    // Runs left, at the mean time of a run so far, spread over the concurrent slots.
    ...(timed > 0 && left > 0 && !isStopped
      ? { etaMs: Math.round(((spent / timed) * left) / Math.max(1, plan.concurrency)) }
      : {}),
    isStopped,
    isComplete: done === total,
  };
}

export function batchGrid(
  plan: BatchPlan,
  state: BatchState,
  summaryOf: SummaryOf,
  ownProfileName = 'own profile',
): BatchGrid {
  const cells: BatchCell[][] = plan.tasks.map((_, taskIndex) =>
    plan.profiles.map((_, profileIndex) => emptyCell(taskIndex, profileIndex)),
  );
  for (const item of plan.items) {
    const cell = cells[item.taskIndex]?.[item.profileIndex];
    if (!cell) continue;
    const entry = state.items[item.key] ?? { status: 'queued' };
    const summary = entry.runId ? summaryOf(entry.runId) : undefined;
    const run: BatchCellRun = {
      key: item.key,
      repeat: item.repeat,
      ...(entry.runId ? { runId: entry.runId } : {}),
      status: entry.status,
      ...(summary?.outcome ? { outcome: summary.outcome } : {}),
      // the history's and the run header's own label: one verdict, never a second reading
      ...(summary ? { verdict: runVerdict(summary) } : {}),
      ...(summary?.check ? { check: summary.check.ok } : {}),
      steps: summary?.steps ?? 0,
      tokens: summary ? summary.usage.prompt + summary.usage.completion : 0,
      ...(summary && durationOf(summary) !== undefined ? { durationMs: durationOf(summary) } : {}),
      stuck: summary?.health?.stuck ?? 0,
    };
    cell.runs.push(run);
    if (run.check !== undefined) {
      cell.checksRun += 1;
      if (run.check) cell.checksPassed += 1;
    }
    // The totals hold ended runs only: a run still going would make them move under the
    // user's eyes, and its partial figures are not a run's.
    if (entry.status !== 'done' || !run.verdict) continue;
    cell.ended += 1;
    cell.verdicts[run.verdict.kind] = (cell.verdicts[run.verdict.kind] ?? 0) + 1;
    if (verdictExitCode(run.verdict.kind) === 0) cell.finished += 1;
    cell.steps += run.steps;
    cell.tokens += run.tokens;
    cell.durationMs += run.durationMs ?? 0;
    cell.stuck += run.stuck;
  }
  return {
    batchId: plan.batchId,
    agent: plan.agent,
    tasks: plan.tasks,
    profiles: plan.profiles.map((p) => p ?? ownProfileName),
    cells,
    progress: batchProgress(plan, state, summaryOf),
  };
}

function emptyCell(taskIndex: number, profileIndex: number): BatchCell {
  return {
    taskIndex,
    profileIndex,
    runs: [],
    ended: 0,
    finished: 0,
    verdicts: {},
    checksPassed: 0,
    checksRun: 0,
    steps: 0,
    tokens: 0,
    durationMs: 0,
    stuck: 0,
  };
}

function durationOf(summary: RunSummary): number | undefined {
  return summary.finishedAt !== undefined ? summary.finishedAt - summary.startedAt : undefined;
}

/** What one run of a cell took: the mean over its ended runs, and the totals, named as such. */
export interface CellFigures {
  /** ended runs the figures cover */
  runs: number;
  mean: { steps: number; tokens: number; durationMs: number };
  total: { steps: number; tokens: number; durationMs: number };
}

/** Per-run figures of a cell (undefined until one of its runs ended). */
export function cellFigures(cell: BatchCell): CellFigures | undefined {
  if (cell.ended === 0) return undefined;
  const total = { steps: cell.steps, tokens: cell.tokens, durationMs: cell.durationMs };
  return {
    runs: cell.ended,
    total,
    mean: {
      steps: total.steps / cell.ended,
      tokens: Math.round(total.tokens / cell.ended),
      durationMs: Math.round(total.durationMs / cell.ended),
    },
  };
}

/** A mean as people read it: `2`, `1.5` (one decimal at most). */
export function meanText(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}
