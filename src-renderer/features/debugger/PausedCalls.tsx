import { useState } from 'react';
import type { ToolCall } from '@shared/domain/message';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench } from '../../store/StoreProvider';
import { useDebugAction } from './use-debug-action';

const NONE: ToolCall[] = [];

/**
 * Paused before tool calls run: each proposed call with Approve / Edit / Skip, and a
 * form to add a call. Decisions are edits of the run (recorded in its history); calls
 * left undecided run when the run resumes (and approval mode records them approved).
 */
export function PausedCalls({ runId }: { runId: string }) {
  const bridge = useBridge();
  const calls = useWorkbench((s) => s.runs[runId]?.timeline.debug?.calls ?? NONE);
  const decisions = useWorkbench((s) => s.runs[runId]?.timeline.debug?.decisions);
  const awaiting = useWorkbench((s) => s.runs[runId]?.timeline.debug?.paused?.awaitingApproval);
  const [name, setName] = useState('');
  const [args, setArgs] = useState('{}');
  const action = useDebugAction();

  const add = async () => {
    const done = await action.run(() =>
      bridge.debug.edit(runId, { kind: 'add_call', name: name.trim(), arguments: args }),
    );
    if (done) {
      setName('');
      setArgs('{}');
    }
  };

  return (
    <div className="paused-calls">
      <div className="section-label">Proposed tool calls (none has run yet)</div>
      {calls.map((call) => (
        <CallRow
          key={call.id}
          runId={runId}
          call={call}
          decision={decisions?.[call.id]}
          needsApproval={awaiting?.includes(call.id) ?? false}
        />
      ))}
      <div className="call-add">
        <input
          data-testid={TEST_IDS.callAddName}
          value={name}
          placeholder="tool"
          onChange={(e) => setName(e.target.value)}
        />
        <input
          className="mono"
          data-testid={TEST_IDS.callAddArgs}
          value={args}
          onChange={(e) => setArgs(e.target.value)}
        />
        <button
          type="button"
          className="secondary"
          data-testid={TEST_IDS.callAdd}
          disabled={!name.trim()}
          onClick={() => void add()}
        >
          Add call
        </button>
      </div>
      {action.error && (
        <p className="field-error" role="alert">
          {action.error}
        </p>
      )}
    </div>
  );
}

function CallRow(props: {
  runId: string;
  call: ToolCall;
  decision: string | undefined;
  needsApproval: boolean;
}) {
  const { runId, call, decision, needsApproval } = props;
  const bridge = useBridge();
  const [mode, setMode] = useState<'view' | 'edit' | 'skip'>('view');
  const [text, setText] = useState('');
  const action = useDebugAction();
  const submit = async (edit: Parameters<typeof bridge.debug.edit>[1]) => {
    if (await action.run(() => bridge.debug.edit(runId, edit))) setMode('view');
  };

  return (
    <div
      className="paused-call"
      data-testid={TEST_IDS.pausedCall}
      data-call-id={call.id}
      data-tool={call.function.name}
      data-decision={decision ?? (needsApproval ? 'waiting' : 'none')}
      data-needs-approval={needsApproval}
    >
      <div className="paused-call-head">
        <strong>{call.function.name}</strong> <span className="mono muted">{call.id}</span>
        {decision && <span className="badge">{decision}</span>}
        {!decision && needsApproval && (
          <span className="badge outcome-max_steps">needs approval</span>
        )}
        <span className="spacer" />
        <button
          type="button"
          data-testid={TEST_IDS.callApprove}
          onClick={() => void submit({ kind: 'approve_call', toolCallId: call.id })}
        >
          Approve
        </button>
        <button
          type="button"
          className="secondary"
          data-testid={TEST_IDS.callEdit}
          onClick={() => {
            setText(prettyJson(call.function.arguments));
            setMode('edit');
          }}
        >
          Edit
        </button>
        <button
          type="button"
          className="secondary"
          data-testid={TEST_IDS.callSkip}
          onClick={() => {
            setText('The user skipped this call.');
            setMode('skip');
          }}
        >
          Skip
        </button>
      </div>
      {mode === 'view' && <pre className="code">{prettyJson(call.function.arguments)}</pre>}
      {mode !== 'view' && (
        <div className="paused-call-edit">
          <textarea
            className={mode === 'edit' ? 'mono' : ''}
            rows={mode === 'edit' ? 4 : 2}
            value={text}
            aria-label={mode === 'edit' ? 'Arguments (JSON)' : 'What the model is told'}
            data-testid={mode === 'edit' ? TEST_IDS.callArgsInput : TEST_IDS.callObservationInput}
            onChange={(e) => setText(e.target.value)}
          />
          <button
            type="button"
            data-testid={TEST_IDS.callSave}
            onClick={() =>
              void submit(
                mode === 'edit'
                  ? { kind: 'edit_call', toolCallId: call.id, arguments: text }
                  : { kind: 'skip_call', toolCallId: call.id, observation: text },
              )
            }
          >
            {mode === 'edit' ? 'Save arguments' : 'Skip with this answer'}
          </button>
          <button type="button" className="link" onClick={() => setMode('view')}>
            Cancel
          </button>
        </div>
      )}
      {action.error && (
        <p className="field-error" role="alert">
          {action.error}
        </p>
      )}
    </div>
  );
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
