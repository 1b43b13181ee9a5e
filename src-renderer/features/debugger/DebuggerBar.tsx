import { useState } from 'react';
import { describePauseReason } from '@shared/domain/debugger';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench } from '../../store/StoreProvider';
import { runStatus } from '../../store/run-events';
import { BreakpointList } from './BreakpointList';
import { PausedCalls } from './PausedCalls';
import { PausedContext } from './PausedContext';
import { useDebugAction } from './use-debug-action';
import { useDebuggerKeys } from './use-debugger-keys';

const POINT_TEXT = {
  before_model: 'before the model call',
  before_tools: 'before the tool calls run',
  model_error: 'after a failed model call (resuming tries again)',
  planner: "before the planner's call",
  sampling: 'before a model call an MCP server asked for',
} as const;

/**
 * The debugger of a live run: its state, Pause / Resume / Step / Step model call (also
 * F8 or p, F10 or n, F11 or m), why it paused, the breakpoints and approval tools, and
 * while paused the edits that apply where it waits. Its state comes from the run's
 * events, so a reloaded or reopened window shows a paused run as paused.
 */
export function DebuggerBar({ runId }: { runId: string }) {
  const bridge = useBridge();
  const isLive = useWorkbench((s) => {
    const summary = s.runs[runId]?.summary;
    return summary !== undefined && runStatus(summary) === 'running';
  });
  const paused = useWorkbench((s) => s.runs[runId]?.timeline.debug?.paused ?? null);
  const action = useDebugAction();
  // A pause takes effect at the next safe point: after the command or model call in
  // flight, which can take a while (issue 25 item 4: the bar said "Running" meanwhile).
  const [isPauseAsked, setPauseAsked] = useState(false);
  // Asked and now paused: the request is done (state adjusted while rendering, as React
  // documents for a value derived from a change).
  if (isPauseAsked && paused) setPauseAsked(false);
  const state = paused ? 'paused' : action.isBusy || isPauseAsked ? 'pausing' : 'running';

  const pause = () =>
    void action.run(async () => {
      const status = await bridge.debug.pause(runId);
      setPauseAsked(status.state === 'pausing');
      return status;
    });
  const resume = () => void action.run(() => bridge.debug.resume(runId));
  const step = (scope: 'cycle' | 'model') =>
    void action.run(async () => {
      const status = await bridge.debug.step(runId, scope);
      setPauseAsked(status.state === 'pausing');
      return status;
    });
  useDebuggerKeys(isLive, {
    togglePause: () => (paused ? resume() : pause()),
    step: () => paused && step('cycle'),
    stepModel: () => paused && step('model'),
  });
  if (!isLive) return null;

  return (
    <section
      className={`debugger-bar is-${state}`}
      data-testid={TEST_IDS.debuggerBar}
      data-state={state}
      data-point={paused?.point}
      aria-label="Debugger"
    >
      <div className="debugger-controls">
        <span className="badge" data-testid={TEST_IDS.debugState}>
          {paused
            ? `Paused at step ${paused.step}`
            : state === 'pausing'
              ? 'Pausing… (at the next safe point, once the running call ends)'
              : 'Running'}
        </span>
        {paused ? (
          <>
            <button
              type="button"
              data-testid={TEST_IDS.debugResume}
              onClick={resume}
              title="Resume (F8 or p)"
            >
              Resume
            </button>
            <button
              type="button"
              className="secondary"
              data-testid={TEST_IDS.debugStep}
              onClick={() => step('cycle')}
              title="Run one think/act cycle, then pause again (F10 or n)"
            >
              Step
            </button>
            <button
              type="button"
              className="secondary"
              data-testid={TEST_IDS.debugStepModel}
              onClick={() => step('model')}
              title="Run only the model call and show its proposed tool calls (F11 or m)"
            >
              Step model call
            </button>
          </>
        ) : (
          <button
            type="button"
            className="secondary"
            data-testid={TEST_IDS.debugPause}
            onClick={pause}
            disabled={state === 'pausing'}
            title="Pause at the next safe point (F8 or p)"
          >
            Pause
          </button>
        )}
        <span className="muted debugger-keys">
          keys: <kbd>p</kbd>/<kbd>F8</kbd> pause·resume · <kbd>n</kbd>/<kbd>F10</kbd> step ·{' '}
          <kbd>m</kbd>/<kbd>F11</kbd> step the model call
        </span>
        {paused && (
          <span className="debugger-reasons" data-testid={TEST_IDS.debugReasons}>
            {paused.agent} {POINT_TEXT[paused.point]}:{' '}
            {paused.reasons.map(describePauseReason).join('; ')}
            {paused.error ? ` — ${paused.error}` : ''}
          </span>
        )}
      </div>
      {action.error && (
        <p className="field-error" role="alert" data-testid={TEST_IDS.debugError}>
          {action.error}
        </p>
      )}
      <BreakpointList runId={runId} />
      {paused?.point === 'before_tools' && <PausedCalls runId={runId} />}
      {(paused?.point === 'before_model' || paused?.point === 'model_error') && (
        <PausedContext runId={runId} agent={paused.agent} />
      )}
    </section>
  );
}
