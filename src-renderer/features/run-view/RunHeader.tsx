import { useState } from 'react';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench } from '../../store/StoreProvider';
import { runStatus } from '../../store/run-events';
import { downloadText } from '../../lib/download';
import { formatCount, formatDuration, totalTokens } from '../../lib/format';
import { useNow } from '../../lib/use-now';

/** Agent, model, state, step counter, tokens, duration, outcome; Stop while live. */
export function RunHeader({ runId }: { runId: string }) {
  const bridge = useBridge();
  const summary = useWorkbench((s) => s.runs[runId]?.summary);
  const [stopState, setStopState] = useState<{
    runId: string;
    status: 'stopping' | 'failed';
    error?: string;
  } | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const status = summary ? runStatus(summary) : 'running';
  const isLive = summary !== undefined && status === 'running';
  const now = useNow(isLive);
  if (!summary) return <div className="run-header muted">Loading the run…</div>;

  const stop = stopState?.runId === runId ? stopState : null;
  const duration = (summary.finishedAt ?? (isLive ? now : summary.startedAt)) - summary.startedAt;
  const onStop = async () => {
    setStopState({ runId, status: 'stopping' });
    try {
      await bridge.stopRun(runId);
    } catch (error) {
      setStopState({ runId, status: 'failed', error: (error as Error).message });
    }
  };
  const onExport = async () => {
    setExportError(null);
    try {
      const file = await bridge.exportRun(runId);
      downloadText(file.fileName, file.content);
    } catch (error) {
      setExportError((error as Error).message);
    }
  };

  return (
    <header className="run-header">
      <div className="run-title" title={summary.task}>
        {summary.task}
      </div>
      <div className="run-facts">
        <span className="run-agent">{summary.flow ? `${summary.flow} flow` : summary.agent}</span>
        <span className="run-model mono" data-testid={TEST_IDS.runModel}>
          {summary.model}
        </span>
        <span
          className={`badge state-${summary.state.toLowerCase()}`}
          data-testid={TEST_IDS.agentState}
        >
          {summary.state}
        </span>
        <span className="step-counter" data-testid={TEST_IDS.stepCounter} title="Step / max steps">
          {summary.steps} / {summary.maxSteps}
        </span>
        <span
          className="muted"
          data-testid={TEST_IDS.runTokens}
          title={`${formatCount(summary.usage.prompt)} in, ${formatCount(summary.usage.completion)} out`}
        >
          {formatCount(totalTokens(summary.usage))} tokens
        </span>
        <span className="muted" data-testid={TEST_IDS.runDuration}>
          {formatDuration(duration)}
        </span>
        {summary.outcome && (
          <span className={`badge outcome-${summary.outcome}`} data-testid={TEST_IDS.runOutcome}>
            {summary.outcome}
          </span>
        )}
        {status === 'interrupted' && (
          <span className="badge outcome-error" title="The app stopped while this run was going">
            interrupted
          </span>
        )}
        <span className="spacer" />
        {isLive && (
          <button
            type="button"
            className="danger"
            data-testid={TEST_IDS.runStop}
            disabled={stop?.status === 'stopping'}
            onClick={() => void onStop()}
          >
            {stop?.status === 'stopping' ? 'Stopping…' : 'Stop'}
          </button>
        )}
        {!isLive && (
          <button
            type="button"
            className="secondary"
            onClick={() => void onExport()}
            title="Save the run's events as a JSONL file"
          >
            Export
          </button>
        )}
      </div>
      {summary.error && (
        <p className="field-error" role="alert">
          {summary.error}
        </p>
      )}
      {stop?.status === 'failed' && (
        <p className="field-error" role="alert">
          Could not stop the run: {stop.error}
        </p>
      )}
      {exportError && (
        <p className="field-error" role="alert">
          Could not export the run: {exportError}
        </p>
      )}
    </header>
  );
}
