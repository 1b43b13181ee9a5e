import type { BatchCell, BatchCellRun, BatchGrid } from '@shared/ipc';
import { cellFigures, meanText } from '@shared/batch-grid';
import { tallyParts } from '@shared/run-outcome';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbenchStore } from '../../store/StoreProvider';
import { formatSeconds, progressText } from './batch-form';

/** One batch: its progress, stop / resume, and the grid of tasks x profiles. */
export function BatchGridView({ grid }: { grid: BatchGrid }) {
  const bridge = useBridge();
  const store = useWorkbenchStore();
  const p = grid.progress;
  const state = p.isComplete ? 'complete' : p.isStopped && p.running === 0 ? 'stopped' : 'running';
  // "compare across profiles": the task's runs that ended, first repeat of each profile first
  const compareRuns = (row: BatchCell[]) =>
    row
      .flatMap((cell) => cell.runs.filter((r) => r.status === 'done' && r.runId))
      .sort((a, b) => a.repeat - b.repeat)
      .flatMap((r) => (r.runId ? [r.runId] : []))
      .slice(0, 12);
  return (
    <section className="batch-grid-view">
      <div className="batch-progress-line">
        <span
          data-testid={TEST_IDS.batchProgress}
          data-done={p.done}
          data-running={p.running}
          data-queued={p.queued}
          data-total={p.total}
          data-state={state}
        >
          {progressText(p)}
        </span>
        {state === 'running' && (
          <button
            type="button"
            data-testid={TEST_IDS.batchStop}
            onClick={() => void bridge.batch.stop(grid.batchId)}
          >
            Stop batch
          </button>
        )}
        {state === 'stopped' && (
          <button
            type="button"
            data-testid={TEST_IDS.batchResume}
            onClick={() => void bridge.batch.resume(grid.batchId)}
          >
            Resume
          </button>
        )}
      </div>
      <table className="batch-grid" data-testid={TEST_IDS.batchGrid}>
        <thead>
          <tr>
            <th>Task</th>
            {grid.profiles.map((profile) => (
              <th key={profile}>{profile}</th>
            ))}
            <th />
          </tr>
        </thead>
        <tbody>
          {grid.cells.map((row, taskIndex) => {
            const runIds = compareRuns(row);
            return (
              <tr key={taskIndex}>
                <th scope="row" className="batch-task" title={grid.tasks[taskIndex]?.task}>
                  {grid.tasks[taskIndex]?.task}
                </th>
                {row.map((cell) => (
                  <td
                    key={cell.profileIndex}
                    data-testid={TEST_IDS.batchCell}
                    data-task={taskIndex}
                    data-profile={cell.profileIndex}
                  >
                    <CellView cell={cell} onOpen={(runId) => store.getState().selectRun(runId)} />
                  </td>
                ))}
                <td>
                  <button
                    type="button"
                    className="link"
                    data-testid={TEST_IDS.batchCompare}
                    data-task={taskIndex}
                    disabled={runIds.length < 2}
                    onClick={() => store.getState().openCompare(runIds)}
                  >
                    compare across profiles
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

function CellView({ cell, onOpen }: { cell: BatchCell; onOpen: (runId: string) => void }) {
  const figures = cellFigures(cell);
  const tally = tallyParts(cell.verdicts);
  return (
    <div className="batch-cell">
      <div className="batch-runs">
        {cell.runs.map((run) => (
          <RunChip key={run.key} run={run} onOpen={onOpen} />
        ))}
      </div>
      {tally.length > 1 && (
        <div className="batch-tally muted">{tally.map((part) => part.text).join(' · ')}</div>
      )}
      <div
        className="batch-figures muted"
        data-testid={TEST_IDS.batchFigures}
        data-runs={figures?.runs ?? 0}
        {...(figures
          ? {
              'data-mean-steps': figures.mean.steps,
              'data-mean-tokens': figures.mean.tokens,
              'data-total-steps': figures.total.steps,
              'data-total-tokens': figures.total.tokens,
            }
          : {})}
      >
        {figures && (
          <span
            title={
              figures.runs > 1
                ? `total of ${figures.runs} runs: ${figureText(figures.total)}`
                : undefined
            }
          >
            {figures.runs === 1
              ? figureText(figures.mean)
              : `per run ${figureText(figures.mean)} (mean of ${figures.runs})`}
          </span>
        )}
        {cell.checksRun > 0 && (
          <span>
            {' '}
            · check {cell.checksPassed}/{cell.checksRun}
          </span>
        )}
        {cell.stuck > 0 && (
          <span className="badge badge-warn">
            {' '}
            stuck {cell.stuck}×{cell.ended > 1 ? ' in all' : ''}
          </span>
        )}
      </div>
    </div>
  );
}

/** `1 step · 74 tok · 1 s`: one run's figures (or a mean of several, said by the caller). */
function figureText(f: { steps: number; tokens: number; durationMs: number }): string {
  return `${meanText(f.steps)} step${f.steps === 1 ? '' : 's'} · ${f.tokens} tok · ${formatSeconds(f.durationMs)}`;
}

function RunChip({ run, onOpen }: { run: BatchCellRun; onOpen: (runId: string) => void }) {
  // The verdict the history and the run header show (run-outcome.ts), not the bare outcome.
  const verdict = run.status === 'done' ? run.verdict : undefined;
  const label = verdict
    ? `${verdict.label}${run.check === undefined ? '' : run.check ? ' ✓' : ' ✗'}`
    : run.status;
  const tone = !verdict ? 'neutral' : run.check === false ? 'bad' : verdict.tone;
  const own =
    run.status === 'done'
      ? `: ${figureText({ steps: run.steps, tokens: run.tokens, durationMs: run.durationMs ?? 0 })}`
      : '';
  return (
    <button
      type="button"
      className={`batch-run tone-${tone}`}
      data-testid={TEST_IDS.batchRun}
      data-run-id={run.runId ?? ''}
      data-status={run.status}
      data-outcome={run.outcome ?? ''}
      data-verdict={verdict?.kind ?? ''}
      {...(run.check !== undefined ? { 'data-check': run.check ? 'pass' : 'fail' } : {})}
      disabled={!run.runId}
      title={`repeat ${run.repeat + 1}${own}${run.runId ? ` (open run ${run.runId})` : ''}`}
      onClick={() => run.runId && onOpen(run.runId)}
    >
      {label}
    </button>
  );
}
