/**
 * A workspace the user chooses (`workbench run --workspace DIR`, the folder picker of
 * the new-run form): the sandbox sees the folder at its work_dir.
 *
 * - `mount`: the folder itself, read-write; runs on the same folder share one session
 *   (and its container), so later runs see what earlier ones did.
 * - `copy` (isolation): the folder is copied into a fresh folder under
 *   WORKBENCH_HOME/workspaces, and the run works there; the original is never changed.
 *
 * Some folders are refused: `/`, the home folder itself, and any folder that holds
 * WORKBENCH_HOME (the agent would see the API keys in secrets.json and every other
 * session).
 */
import { createHash } from 'node:crypto';
import {
  accessSync,
  chownSync,
  constants,
  cpSync,
  lstatSync,
  readdirSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { PreflightCheck, RunWorkspace, WorkspaceChoice } from '@shared/ipc';
import type { SandboxSettings } from '../config/schema';
import { parseByteSize, workspaceBytes } from '../sandbox/workspace-size';
import type { Session, SessionRegistry } from '../session/session';

/** The session of a mounted folder: the same folder, the same session and container. */
export function mountSessionId(path: string): string {
  return `w-${createHash('sha256').update(resolve(path)).digest('hex').slice(0, 12)}`;
}

function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Problems that refuse the folder (error) or deserve a word (warn); ok when none. */
export async function checkWorkspace(
  choice: WorkspaceChoice,
  context: { home: string; settings: SandboxSettings },
): Promise<PreflightCheck> {
  const path = resolve(choice.path);
  const refuse = (message: string, fix: string): PreflightCheck => ({
    id: 'workspace',
    status: 'error',
    message,
    fix,
  });
  if (!isAbsolute(choice.path)) {
    return refuse(
      `The workspace "${choice.path}" is not an absolute path`,
      'Give the full path of the folder.',
    );
  }
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return refuse(
      `The workspace folder ${path} does not exist`,
      'Create it, or choose another folder.',
    );
  }
  if (!stat.isDirectory()) {
    return refuse(`The workspace ${path} is a file, not a folder`, 'Choose a folder.');
  }
  // Judged by where the folder really is: a link to the app's folder is the app's folder.
  const real = realpathSync(path);
  const home = realOrResolved(context.home);
  if (real !== path) return checkWorkspace({ ...choice, path: real }, context);
  if (path === sep || path === realOrResolved(homedir()) || isInside(home, path)) {
    return refuse(
      `The workspace ${path} is too wide: the agent would see ${path === sep ? 'the whole machine' : 'your whole home folder'}${isInside(home, path) ? `, including ${home} (API keys, other sessions)` : ''}`,
      'Choose the project folder the agent should work on.',
    );
  }
  if (isInside(path, home)) {
    return refuse(
      `The workspace ${path} is inside the app's own folder ${home}`,
      'Choose a folder of your own.',
    );
  }
  if (choice.mode === 'mount') {
    try {
      accessSync(path, constants.R_OK | constants.W_OK | constants.X_OK);
    } catch {
      return refuse(
        `The workspace ${path} is not writable by this app`,
        'Fix its permissions, or run on an isolated copy.',
      );
    }
    if (process.getuid?.() === 0 && stat.uid === 0) {
      return {
        id: 'workspace',
        status: 'warn',
        message: `${path} belongs to root: the sandbox never runs as root, so the agent cannot write there`,
        fix: 'Give the folder to a normal user (chown), or run on an isolated copy.',
      };
    }
    return {
      id: 'workspace',
      status: 'ok',
      message: `${path} is mounted read-write at ${context.settings.work_dir}: the agent's edits land in this folder`,
    };
  }
  const limit = parseByteSize(context.settings.workspace_limit);
  const bytes = await workspaceBytes(path, limit);
  if (bytes > limit) {
    return refuse(
      `The workspace ${path} is larger than [sandbox] workspace_limit = "${context.settings.workspace_limit}"`,
      'Mount it instead of copying it, or raise workspace_limit in Settings → Sandbox.',
    );
  }
  return {
    id: 'workspace',
    status: 'ok',
    message: `${path} is copied for this run (the original is not changed)`,
  };
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

export interface OpenedWorkspace {
  session: Session;
  workspace: RunWorkspace;
  /** a copy's session is closed after its run (its container removed, the copy kept) */
  isPerRun: boolean;
}

/** Opens the session of a chosen folder: the folder itself, or a fresh copy of it. */
export function openWorkspace(
  choice: WorkspaceChoice,
  context: {
    runId: string;
    workspacesDir: string;
    sessions: SessionRegistry;
    sandboxUser?: { uid: number; gid: number };
  },
): OpenedWorkspace {
  const path = resolve(choice.path);
  if (choice.mode === 'mount') {
    const session = context.sessions.openAt(mountSessionId(path), path, { isUserFolder: true });
    return { session, workspace: { path, mode: 'mount' }, isPerRun: false };
  }
  const id = `copy-${context.runId}`;
  const copyPath = join(context.workspacesDir, id);
  // Symlinks are copied as links (never followed out of the folder); sockets and
  // devices are left out.
  cpSync(path, copyPath, {
    recursive: true,
    dereference: false,
    verbatimSymlinks: true,
    filter: (source) => {
      const stat = lstatSync(source);
      return stat.isDirectory() || stat.isFile() || stat.isSymbolicLink();
    },
  });
  // When the app runs as root the sandbox user is not: the copy is handed to it.
  if (process.getuid?.() === 0 && context.sandboxUser) chownTree(copyPath, context.sandboxUser);
  const session = context.sessions.openAt(id, copyPath, { isUserFolder: false });
  return { session, workspace: { path, mode: 'copy', copyPath }, isPerRun: true };
}

function chownTree(dir: string, user: { uid: number; gid: number }): void {
  chownSync(dir, user.uid, user.gid);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) chownTree(path, user);
    else if (!entry.isSymbolicLink()) chownSync(path, user.uid, user.gid);
  }
}
