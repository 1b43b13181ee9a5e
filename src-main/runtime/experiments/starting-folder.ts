/**
 * "Add to dataset" copies the folder a run started in beside the dataset, so that folder
 * passes the same gate as a run's workspace (no `/`, no home folder, nothing holding
 * WORKBENCH_HOME), and an imported run's folder is never taken: its history names a folder
 * of the machine it was recorded on (docs/security.md). The app and `workbench dataset add`
 * both ask here, before anything is copied.
 */
import type { RunEvent } from '@shared/events';
import { checkWorkspace } from '../launch/workspace';
import type { WorkspaceGateContext } from '../launch/workspace-gate';
import { DatasetAddError } from './dataset-add';

export async function admitStartingFolder(
  run: { runId: string; events: readonly RunEvent[]; isImported?: boolean },
  gate: WorkspaceGateContext,
): Promise<void> {
  const started = run.events.find((e) => e.type === 'run.started');
  const path = started?.type === 'run.started' ? started.workspace?.path : undefined;
  if (path === undefined) return;
  if (run.isImported)
    throw new DatasetAddError(
      `Run ${run.runId} was imported: the folder its history names (${path}) belongs to the machine it was recorded on, so it is not copied into a dataset. Add a run recorded here instead.`,
    );
  const check = await checkWorkspace({ path, mode: 'copy' }, gate);
  if (check.status === 'error')
    throw new DatasetAddError(
      `Run ${run.runId} started in ${path}, which is not copied into a dataset: ${check.message}. ${check.fix ?? ''}`.trim(),
    );
}
