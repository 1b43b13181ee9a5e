import { useState } from 'react';
import { isAgentName } from '@shared/domain/agent';
import { canStartAgentAgain } from '@shared/run-agent';
import type { RerunSettings } from '@shared/events';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench } from '../../store/StoreProvider';
import { runStatus } from '../../store/run-events';
import { healthParts } from '@shared/run-outcome';
import { VerdictBadge } from '../../components/VerdictBadge';
import { downloadText } from '../../lib/download';
import { formatCount, formatDuration, totalTokens } from '../../lib/format';
import { useNow } from '../../lib/use-now';
import { runErrorText, sandboxCause } from '../../store/timeline/run-error-text';
import { RunWorkspaceLine } from './RunWorkspaceLine';
import { AddToDataset } from '../history/AddToDataset';

/**
 * Agent, model, the run's one badge (state and outcome together), the health line
 * (steps, tool errors, stuck, duplicates, retries, tokens, wall time) and the workspace;
 * Stop while live.
 */
export function RunHeader({ runId }: { runId: string }) {
  const bridge = useBridge();
  const summary = useWorkbench((s) => s.runs[runId]?.summary);
  const sandboxFailure = useWorkbench((s) => s.runs[runId]?.timeline.sandboxFailure);
  const [stopState, setStopState] = useState<{
    runId: string;
    status: 'stopping' | 'failed';
    error?: string;
  } | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const [againError, setAgainError] = useState<string | null>(null);
  const status = summary ? runStatus(summary) : 'running';
  const isLive = summary !== undefined && status === 'running';
  const now = useNow(isLive);
  if (!summary) return <div className="run-header muted">Loading the run…</div>;

  const stop = stopState?.runId === runId ? stopState : null;
  // runs of agents the workbench only recorded (gateway, OTel import, sandbox MCP) cannot
  // be started here again: no button that the host would refuse
  const canStart = canStartAgentAgain(summary);
  const duration = (summary.finishedAt ?? (isLive ? now : summary.startedAt)) - summary.startedAt;
  const onStop = async () => {
    setStopState({ runId, status: 'stopping' });
    try {
      await bridge.stopRun(runId);
    } catch (error) {
      setStopState({ runId, status: 'failed', error: (error as Error).message });
    }
  };
  // "Run again": the same task and agent from step 0, recorded as this run's sibling; in
  // its workspace (mounted again, or copied again), or in a fresh session of its own. An
  // imported run's folder belongs to the machine it came from: it gets a fresh session.
  // By default with the settings this run recorded (its model profile and agent settings;
  // the host refuses, saying why, when they cannot be rebuilt); today's only when asked.
  const onRunAgain = async (settings: RerunSettings) => {
    setAgainError(null);
    try {
      await bridge.startRun({
        task: summary.task,
        ...(summary.flow
          ? { flow: summary.flow }
          : isAgentName(summary.agent)
            ? { agent: summary.agent }
            : {}),
        ...(summary.workspace && !summary.isImported
          ? { workspace: { path: summary.workspace.path, mode: summary.workspace.mode } }
          : { sessionId: `rerun-${Date.now().toString(36)}` }),
        rerunOf: runId,
        rerunSettings: settings,
      });
    } catch (error) {
      setAgainError((error as Error).message);
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
      <div className="run-title" title={summary.task} data-testid={TEST_IDS.runTitle}>
        {summary.title ?? summary.task}
        {summary.title && <span className="muted run-title-task"> · {summary.task}</span>}
      </div>
      <div className="run-facts">
        <span className="run-agent">{summary.flow ? `${summary.flow} flow` : summary.agent}</span>
        <span className="run-model mono" data-testid={TEST_IDS.runModel}>
          {summary.model}
        </span>
        <VerdictBadge
          summary={summary}
          testId={
            summary.outcome || status === 'interrupted' ? TEST_IDS.runOutcome : TEST_IDS.agentState
          }
        />
        <span className="step-label" title="Steps run / max steps">
          steps{' '}
          <span className="step-counter" data-testid={TEST_IDS.stepCounter}>
            {/* a recorded outside agent has no step limit of ours (maxSteps 0) */}
            {summary.maxSteps > 0 ? `${summary.steps} / ${summary.maxSteps}` : summary.steps}
          </span>
        </span>
        <span className="health-line" data-testid={TEST_IDS.runHealth}>
          {healthParts(summary.health).map((part) => (
            <span
              key={part.key}
              className={`health-part health-${part.key}`}
              data-health={part.key}
              data-count={part.count}
            >
              {part.text}
            </span>
          ))}
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
        {status === 'interrupted' && !summary.flow && !summary.isImported && canStart && (
          <button
            type="button"
            data-testid={TEST_IDS.runResume}
            onClick={() =>
              void bridge.resumeRun(runId).catch((error: unknown) => {
                setAgainError((error as Error).message);
              })
            }
            title="Continue this run from where the app stopped, in the workspace it left"
          >
            Resume
          </button>
        )}
        {/* a continuation's task is a follow-up that means nothing without its parent */}
        {!isLive && !summary.continueOf && canStart && (
          <button
            type="button"
            className="secondary"
            data-testid={TEST_IDS.runAgain}
            onClick={() => void onRunAgain('recorded')}
            title={`Run the same task with the same agent again, from step 0, with the settings this run recorded (model ${summary.model}; the API key from today's settings), listed beside this run`}
          >
            Run again
          </button>
        )}
        {!isLive && !summary.continueOf && canStart && (
          <button
            type="button"
            className="secondary"
            data-testid={TEST_IDS.runAgainToday}
            onClick={() => void onRunAgain('current')}
            title="Run the same task with the same agent again, from step 0, with the settings config.toml has now (today's model profile and agent settings)"
          >
            Run again with today’s settings
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
        {!isLive && <AddToDataset runIds={[runId]} testId={TEST_IDS.addToDataset} />}
      </div>
      <RunWorkspaceLine summary={summary} />
      {summary.error && (
        <p className="field-error" role="alert" data-testid={TEST_IDS.runError}>
          {runErrorText(summary.error, sandboxCause(summary.error, sandboxFailure))}
        </p>
      )}
      {stop?.status === 'failed' && (
        <p className="field-error" role="alert">
          Could not stop the run: {stop.error}
        </p>
      )}
      {againError && (
        <p className="field-error" role="alert" data-testid={TEST_IDS.runAgainError}>
          Could not start it: {againError}
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
