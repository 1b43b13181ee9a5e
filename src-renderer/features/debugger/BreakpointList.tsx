import { useState, type FormEvent } from 'react';
import { parseBreakpoint } from '@shared/domain/debugger';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench } from '../../store/StoreProvider';
import { useDebugAction } from './use-debug-action';

const NO_BREAKPOINTS: never[] = [];

/** The run's breakpoints (remove, add by text form) and its approval-mode tools. */
export function BreakpointList({ runId }: { runId: string }) {
  const bridge = useBridge();
  const breakpoints = useWorkbench(
    (s) => s.runs[runId]?.timeline.debug?.breakpoints ?? NO_BREAKPOINTS,
  );
  const approvals = useWorkbench((s) => s.runs[runId]?.timeline.debug?.approvals ?? NO_BREAKPOINTS);
  const [spec, setSpec] = useState('');
  const [tools, setTools] = useState<string | null>(null);
  const action = useDebugAction();
  const shownTools = tools ?? approvals.map((r) => r.tool).join(', ');

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseBreakpoint(spec);
    if (!parsed.ok) {
      action.fail(parsed.error);
      return;
    }
    if (await action.run(() => bridge.debug.setBreakpoint(runId, spec.trim()))) setSpec('');
  };
  const saveTools = async () => {
    if (tools === null) return;
    const list = tools.split(/[\s,]+/).filter(Boolean);
    if (await action.run(() => bridge.debug.setApproval(runId, list))) setTools(null);
  };

  return (
    <div className="breakpoints">
      <ul className="breakpoint-list">
        {breakpoints.map((bp) => (
          <li key={bp.id} data-testid={TEST_IDS.breakpointItem} data-id={bp.id}>
            <span className="mono">{bp.spec}</span>
            <span className="muted">
              {' '}
              {bp.id}
              {bp.origin === 'config' ? ` · saved for ${bp.agent ?? 'the run'}` : ''}
            </span>{' '}
            <button
              type="button"
              className="link"
              data-testid={TEST_IDS.breakpointRemove}
              aria-label={`Remove breakpoint ${bp.spec}`}
              onClick={() => void action.run(() => bridge.debug.clearBreakpoint(runId, bp.id))}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <form className="breakpoint-add" onSubmit={(e) => void add(e)}>
        <input
          data-testid={TEST_IDS.breakpointInput}
          value={spec}
          placeholder="Add a breakpoint: tool:bash, stuck, tool_error, step:5, tokens:50k…"
          onChange={(e) => setSpec(e.target.value)}
        />
        <button type="submit" className="secondary" data-testid={TEST_IDS.breakpointAdd}>
          Add
        </button>
        <label className="approval">
          Approve before running{' '}
          <input
            data-testid={TEST_IDS.approvalInput}
            value={shownTools}
            placeholder="bash, str_replace_editor"
            onChange={(e) => setTools(e.target.value)}
            onBlur={() => void saveTools()}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                void saveTools();
              }
            }}
          />
        </label>
      </form>
      {action.error && (
        <p className="field-error" role="alert">
          {action.error}
        </p>
      )}
    </div>
  );
}
