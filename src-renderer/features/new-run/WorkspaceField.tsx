import { useState } from 'react';
import { TEST_IDS } from '../../test-ids';
import { useBridge, useWorkbench } from '../../store/StoreProvider';
import { HostPath } from '../../components/HostPath';

export interface WorkspaceValue {
  path: string;
  isIsolated: boolean;
}

/**
 * The host folder the sandbox sees at /workspace: typed, or chosen with the desktop
 * app's folder dialog; "isolated" runs on a copy so the folder itself never changes.
 * Empty: the app's own workspace for this session, whose host path is shown (issue 25
 * item 11: nothing said where "this session's workspace folder" was on disk).
 */
export function WorkspaceField({
  value,
  onChange,
}: {
  value: WorkspaceValue;
  onChange: (value: WorkspaceValue) => void;
}) {
  const bridge = useBridge();
  const mode = useWorkbench((s) => s.appInfo?.mode);
  const sessionWorkspace = useWorkbench((s) => s.appInfo?.sessionWorkspace);
  const [error, setError] = useState<string | null>(null);
  const browse = async () => {
    setError(null);
    try {
      const path = await bridge.settings.pickFolder();
      if (path) onChange({ ...value, path });
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <div className="workspace-field">
      <label htmlFor="workspace-input">Workspace folder</label>
      <div className="workspace-row">
        <input
          id="workspace-input"
          className="mono"
          data-testid={TEST_IDS.workspaceInput}
          placeholder="(optional) /path/to/project: mounted at /workspace"
          value={value.path}
          spellCheck={false}
          onChange={(e) => onChange({ ...value, path: e.target.value })}
        />
        {mode === 'desktop' && (
          <button
            type="button"
            className="secondary"
            data-testid={TEST_IDS.workspaceBrowse}
            onClick={() => void browse()}
          >
            Browse…
          </button>
        )}
        <label title="Copy the folder for this run; the agent's edits never reach the original">
          <input
            type="checkbox"
            data-testid={TEST_IDS.workspaceIsolated}
            checked={value.isIsolated}
            disabled={value.path.trim() === ''}
            onChange={(e) => onChange({ ...value, isIsolated: e.target.checked })}
          />{' '}
          isolated copy
        </label>
      </div>
      {value.path.trim() === '' && sessionWorkspace && (
        <p className="muted field-help" data-testid={TEST_IDS.sessionWorkspace}>
          Empty: the run works in this session&apos;s workspace folder,{' '}
          <HostPath path={sessionWorkspace} /> (the sandbox sees it at /workspace; its files stay
          there after the run).
        </p>
      )}
      {mode === 'browser' && (
        <p className="muted field-help">
          In browser mode, type the folder&apos;s path on the machine that runs the workbench.
        </p>
      )}
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}
