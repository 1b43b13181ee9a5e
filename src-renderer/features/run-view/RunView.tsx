import { useApi, useWorkbench } from '../../store/StoreProvider';
import { EventRow } from './EventRow';

export function RunView() {
  const api = useApi();
  const runId = useWorkbench((s) => s.selectedRunId ?? s.order[0] ?? null);
  const run = useWorkbench((s) => (runId ? s.runs[runId] : undefined));
  if (!runId || !run) {
    return (
      <section className="run-view empty" data-testid="run-empty">
        <p>No runs yet. Describe a task above and press “Start run”.</p>
      </section>
    );
  }
  const summary = run.summary;
  const isRunning = summary !== undefined && summary.outcome === undefined;
  return (
    <section className="run-view" aria-label="Run">
      <div className="run-header">
        <span className="run-agent">{summary?.agent ?? '…'}</span>
        <span className="run-model">{summary?.model ?? ''}</span>
        <span
          className={`badge state-${(summary?.state ?? 'IDLE').toLowerCase()}`}
          data-testid="agent-state"
        >
          {summary?.state ?? 'IDLE'}
        </span>
        <span className="step-counter" data-testid="step-counter">
          {summary ? `${summary.steps} / ${summary.maxSteps}` : ''}
        </span>
        {summary?.outcome && (
          <span className="outcome" data-testid="run-outcome">
            {summary.outcome}
          </span>
        )}
        {isRunning && (
          <button type="button" onClick={() => void api.stopRun({ runId })} data-testid="stop-run">
            Stop
          </button>
        )}
      </div>
      <ol className="event-list" data-testid="event-list">
        {run.events.map((event) => (
          <EventRow key={event.seq} event={event} />
        ))}
      </ol>
    </section>
  );
}
