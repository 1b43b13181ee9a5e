import type { BatchCell, BatchCellRun, BatchGrid } from '@shared/ipc';
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
  return (
    <div className="batch-cell">
      <div className="batch-runs">
        {cell.runs.map((run) => (
          <RunChip key={run.key} run={run} onOpen={onOpen} />
        ))}
      </div>
      <div className="batch-figures muted">
        {cell.checksRun > 0 && (
          <span>
            check {cell.checksPassed}/{cell.checksRun}
          </span>
        )}{' '}
        <span>{cell.steps} steps</span> <span>{cell.tokens} tok</span>{' '}
        <span>{formatSeconds(cell.durationMs)}</span>
        {cell.stuck > 0 && <span className="badge badge-warn"> stuck {cell.stuck}</span>}
      </div>
    </div>
  );
}

function RunChip({ run, onOpen }: { run: BatchCellRun; onOpen: (runId: string) => void }) {
  const label =
    run.status === 'done'
      ? `${run.outcome ?? 'ended'}${run.check === undefined ? '' : run.check ? ' ✓' : ' ✗'}`
      : run.status;
  const tone =
    run.status !== 'done'
      ? 'neutral'
      : run.outcome === 'finished' && run.check !== false
        ? 'good'
        : 'bad';
  return (
    <button
      type="button"
      className={`batch-run tone-${tone}`}
      data-testid={TEST_IDS.batchRun}
      data-run-id={run.runId ?? ''}
      data-status={run.status}
      data-outcome={run.outcome ?? ''}
      {...(run.check !== undefined ? { 'data-check': run.check ? 'pass' : 'fail' } : {})}
      disabled={!run.runId}
      title={`repeat ${run.repeat + 1}${run.runId ? `: open run ${run.runId}` : ''}`}
      onClick={() => run.runId && onOpen(run.runId)}
    >
      {label}
    </button>
  );
}
