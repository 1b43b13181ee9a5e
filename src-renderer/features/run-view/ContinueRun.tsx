/**
 * "Continue this run": a follow-up message box under a finished run (docs/time-travel.md,
 * "Continue a finished run"). Sending it starts a continuation, a new run with this run's
 * whole conversation plus the message, in the same session and workspace, and opens it;
 * the history nests it under this run. Not offered for a run still going, an interrupted
 * run (Resume is), a PlanningFlow run, an imported one (their refusals say why) or one of an
 * agent the workbench only recorded (src-shared/run-agent.ts).
 */
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { canStartAgentAgain } from '@shared/run-agent';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench } from '../../store/StoreProvider';

export function ContinueRun({ runId }: { runId: string }) {
  const bridge = useBridge();
  const summary = useWorkbench((s) => s.runs[runId]?.summary);
  const [message, setMessage] = useState('');
  const [state, setState] = useState<
    { status: 'idle' | 'sending' } | { status: 'failed'; error: string }
  >({ status: 'idle' });
  if (!summary?.outcome || summary.flow || summary.isImported || !canStartAgentAgain(summary))
    return null;
  const isEmpty = message.trim() === '';

  const submit = async (e: FormEvent | KeyboardEvent) => {
    e.preventDefault();
    if (isEmpty || state.status === 'sending') return;
    setState({ status: 'sending' });
    try {
      await bridge.continueRun({ runId, message: message.trim() });
      setMessage('');
      setState({ status: 'idle' });
    } catch (error) {
      setState({ status: 'failed', error: (error as Error).message });
    }
  };
  return (
    <form
      className="continue-box"
      data-testid={TEST_IDS.continuePanel}
      aria-label="Continue this run"
      onSubmit={(e) => void submit(e)}
    >
      <label htmlFor={`continue-${runId}`}>
        <strong>Continue this run</strong>{' '}
        <span className="muted">
          with its whole conversation, in the same workspace
          {summary.workspace ? ` (${summary.workspace.path})` : ''}
        </span>
      </label>
      <div className="human-answer">
        <textarea
          id={`continue-${runId}`}
          data-testid={TEST_IDS.continueMessage}
          rows={2}
          value={message}
          placeholder="A follow-up for the agent (Enter sends, Shift+Enter for a new line)"
          onChange={(e) => setMessage(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) void submit(e);
          }}
        />
        <button
          type="submit"
          data-testid={TEST_IDS.continueSubmit}
          disabled={isEmpty || state.status === 'sending'}
        >
          {state.status === 'sending' ? 'Starting…' : 'Continue'}
        </button>
      </div>
      {state.status === 'failed' && (
        <p className="field-error" role="alert" data-testid={TEST_IDS.continueError}>
          Could not continue: {state.error}
        </p>
      )}
    </form>
  );
}
