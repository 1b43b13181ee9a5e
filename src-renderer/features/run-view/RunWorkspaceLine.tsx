import type { RunSummary } from '@shared/ipc';
import { TEST_IDS } from '../../test-ids';
import { HostPath } from '../../components/HostPath';
import { useWorkbench } from '../../store/StoreProvider';
import { sessionFolder } from '../../lib/session-folder';

/**
 * Where the run works on the host: the folder the user chose (mounted, or its copy), or
 * its session's workspace folder when it chose none. An imported run's folders belong to
 * the machine it was recorded on: named, never offered as a folder here.
 */
export function RunWorkspaceLine({ summary }: { summary: RunSummary }) {
  const workspacesDir = useWorkbench((s) => s.appInfo?.workspacesDir);
  const { workspace } = summary;
  if (workspace) {
    return (
      <p className="muted run-workspace" data-testid={TEST_IDS.runWorkspace}>
        Workspace: <span className="mono">{workspace.path}</span>
        {summary.isImported
          ? ' (on the machine this run was recorded on; an imported run never uses it here)'
          : workspace.mode === 'copy'
            ? ` (copied; the run works on ${workspace.copyPath ?? 'a copy'})`
            : ' (mounted read-write at /workspace)'}
      </p>
    );
  }
  if (summary.isImported || !summary.sessionId || !workspacesDir) return null;
  return (
    <p className="muted run-workspace" data-testid={TEST_IDS.runWorkspace}>
      Workspace: <HostPath path={sessionFolder(workspacesDir, summary.sessionId)} /> (its
      session&apos;s folder, mounted read-write at /workspace)
    </p>
  );
}
