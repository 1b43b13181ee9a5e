/**
 * A workspace the user chooses (`workbench run --workspace DIR`, the folder picker of
 * the new-run form, a batch task's folder): the sandbox sees the folder at its work_dir.
 *
 * - `mount`: the folder itself, read-write; runs on the same folder share one session
 *   (and its container), so later runs see what earlier ones did.
 * - `copy` (isolation): the folder is copied into a fresh folder under
 *   WORKBENCH_HOME/workspaces, and the run works there; the original is never changed.
 * - a resumed copy: the copy an interrupted run worked on, found by that run's id (never
 *   by a path its history names), mounted again as it was left.
 *
 * Every chosen folder passes the gate first (workspace-gate.ts): this is the only place a
 * host folder becomes a sandbox's workspace.
 */
import { createHash } from 'node:crypto';
import { chownSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isRunId } from '@shared/domain/ids';
import type { RunWorkspace, WorkspaceChoice } from '@shared/ipc';
import type { Session, SessionRegistry } from '../session/session';
import { assertNotSymlink, assertRealInside } from '../util/contained-path';
import { copyFolder } from './copy-folder';
import { admitWorkspace, WorkspaceRefusedError, type WorkspaceGateContext } from './workspace-gate';

export { checkWorkspace, WorkspaceRefusedError } from './workspace-gate';

/** The session of a mounted folder: the same folder, the same session and container. */
export function mountSessionId(path: string): string {
  return `w-${createHash('sha256').update(resolve(path)).digest('hex').slice(0, 12)}`;
}

export interface OpenedWorkspace {
  session: Session;
  workspace: RunWorkspace;
  /** a copy's session is closed after its run (its container removed, the copy kept) */
  isPerRun: boolean;
}

/** What a run asks for: a folder to mount or copy, or the copy an earlier run left. */
export type WorkspaceRequest = WorkspaceChoice & {
  /**
   * resume: work on the copy that run (its id) made, as it was left, instead of copying
   * `path` again; `path` is only the original's name, for the record
   */
  reuseCopyOf?: string;
  /**
   * a copy goes into this session's own folder (made empty with its sandbox by a batch's
   * warm pool) instead of a fresh `copy-<runId>` folder and session
   */
  into?: Session;
};

export interface OpenWorkspaceContext extends WorkspaceGateContext {
  runId: string;
  workspacesDir: string;
  sessions: SessionRegistry;
  sandboxUser?: { uid: number; gid: number };
}

/**
 * Opens the session of a chosen folder (the folder itself, or a fresh copy of it) once
 * the gate admits it; throws WorkspaceRefusedError when it does not.
 */
export async function openWorkspace(
  request: WorkspaceRequest,
  context: OpenWorkspaceContext,
): Promise<OpenedWorkspace> {
  if (request.reuseCopyOf !== undefined) return reopenCopy(request, context);
  const path = await admitWorkspace(request, context);
  if (request.mode === 'mount') {
    const session = context.sessions.openAt(mountSessionId(path), path, { isUserFolder: true });
    return { session, workspace: { path, mode: 'mount' }, isPerRun: false };
  }
  const id = `copy-${context.runId}`;
  const copyPath = request.into?.workspaceDir ?? join(context.workspacesDir, id);
  // Walked by open descriptors: links copied as links, never followed, also while an
  // agent of another session swaps the folder's names (copy-folder.ts).
  copyFolder(path, copyPath);
  // When the app runs as root the sandbox user is not: the copy is handed to it.
  if (process.getuid?.() === 0 && context.sandboxUser) chownTree(copyPath, context.sandboxUser);
  const session = request.into ?? context.sessions.openAt(id, copyPath, { isUserFolder: false });
  return { session, workspace: { path, mode: 'copy', copyPath }, isPerRun: true };
}

/** The copy `reuseCopyOf` made: derived from the run id, a real folder inside workspacesDir. */
function reopenCopy(request: WorkspaceRequest, context: OpenWorkspaceContext): OpenedWorkspace {
  const owner = request.reuseCopyOf ?? '';
  const refuse = (message: string): never => {
    throw new WorkspaceRefusedError({
      id: 'workspace',
      status: 'error',
      message,
      fix: 'Fork the run at its last step instead: the fork restores its files from a checkpoint.',
    });
  };
  if (!isRunId(owner)) refuse(`"${owner}" is not a run id`);
  const id = `copy-${owner}`;
  const copyPath = join(context.workspacesDir, id);
  try {
    assertNotSymlink(copyPath, "The run's copy");
    assertRealInside(context.workspacesDir, copyPath, "The run's copy");
  } catch (error) {
    refuse(`The copy run ${owner} worked on is gone or unusable (${(error as Error).message})`);
  }
  const session = context.sessions.openAt(id, copyPath, { isUserFolder: false });
  return {
    session,
    workspace: { path: request.path, mode: 'copy', copyPath },
    isPerRun: true,
  };
}

function chownTree(dir: string, user: { uid: number; gid: number }): void {
  chownSync(dir, user.uid, user.gid);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) chownTree(path, user);
    else if (!entry.isSymbolicLink()) chownSync(path, user.uid, user.gid);
  }
}
