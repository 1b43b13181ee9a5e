/**
 * The one gate every host folder passes before the sandbox sees it (issue 24 item 2):
 * `run --workspace`, the new-run form, Run again, a batch's task folders, a resumed run's
 * folder. Each entry point hands the folder to `openWorkspace` (workspace.ts), which
 * asks `admitWorkspace` first; nothing else bind-mounts or copies a host folder.
 *
 * Refused, judged by where the folder really is (links followed):
 * - a relative path, a path that is not a folder;
 * - `/`, any folder that holds the user's home folder or WORKBENCH_HOME (the agent would
 *   see the API keys in secrets.json and every other session), and the home folder itself;
 * - a folder inside WORKBENCH_HOME (the app's own files and other sessions' workspaces);
 * - system folders of the host (`/etc`, `/proc`, `/var/lib/docker`, ...): their files
 *   were never the user's project, and a copy would hand root-only files to the sandbox
 *   user when the app runs as root.
 * The admitted path is the real one: what is checked is what is mounted or copied.
 */
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, resolve, sep } from 'node:path';
import type { PreflightCheck, WorkspaceChoice } from '@shared/ipc';
import type { SandboxSettings } from '../config/schema';
import { parseByteSize, workspaceBytes } from '../sandbox/workspace-size';
import { isWithin, LINUX_SYSTEM_DIRS } from '../util/contained-path';

export interface WorkspaceGateContext {
  /** WORKBENCH_HOME */
  home: string;
  settings: SandboxSettings;
  /** the user's home folder (tests give their own) */
  userHome?: string;
}

/** A folder the gate refused; `check` says why and what to do. */
export class WorkspaceRefusedError extends Error {
  constructor(readonly check: PreflightCheck) {
    super(`${check.message}. ${check.fix ?? ''}`.trim());
    this.name = 'WorkspaceRefusedError';
  }
}

/**
 * Host folders that are never a workspace, nor inside one. Folders of the system, of
 * the container engines (their data holds every container's files) and of root.
 */
const SYSTEM_FOLDERS = [
  ...LINUX_SYSTEM_DIRS,
  '/root',
  '/var/lib/containers',
  '/var/lib/docker',
  '/System',
  '/Library',
  '/private/etc',
  '/private/var/run',
];

/** The check of a chosen folder, as the pre-flight shows it (error, warn or ok). */
export async function checkWorkspace(
  choice: WorkspaceChoice,
  context: WorkspaceGateContext,
): Promise<PreflightCheck> {
  return (await inspect(choice, context)).check;
}

/**
 * The real path of a folder that may be mounted or copied; throws WorkspaceRefusedError
 * (with the pre-flight's message and fix) when it may not.
 */
export async function admitWorkspace(
  choice: WorkspaceChoice,
  context: WorkspaceGateContext,
): Promise<string> {
  const { check, realPath } = await inspect(choice, context);
  if (check.status === 'error' || realPath === undefined) throw new WorkspaceRefusedError(check);
  return realPath;
}

async function inspect(
  choice: WorkspaceChoice,
  context: WorkspaceGateContext,
): Promise<{ check: PreflightCheck; realPath?: string }> {
  const refuse = (message: string, fix: string) => ({
    check: { id: 'workspace' as const, status: 'error' as const, message, fix },
  });
  if (typeof choice.path !== 'string' || choice.path.includes('\0')) {
    return refuse('The workspace path is not a valid path', 'Give the full path of the folder.');
  }
  if (!isAbsolute(choice.path)) {
    return refuse(
      `The workspace "${choice.path}" is not an absolute path`,
      'Give the full path of the folder.',
    );
  }
  const given = resolve(choice.path);
  let real: string;
  try {
    real = realpathSync(given);
  } catch {
    return refuse(
      `The workspace folder ${given} does not exist`,
      'Create it, or choose another folder.',
    );
  }
  let stat;
  try {
    stat = statSync(real);
  } catch {
    return refuse(`The workspace folder ${given} cannot be read`, 'Choose another folder.');
  }
  if (!stat.isDirectory()) {
    return refuse(`The workspace ${given} is a file, not a folder`, 'Choose a folder.');
  }
  // Judged by where the folder really is: a link to the app's folder is the app's folder.
  const path = real;
  const shown = real === given ? given : `${given} (a link to ${real})`;
  const home = realOrResolved(context.home);
  const userHome = realOrResolved(context.userHome ?? homedir());
  const holdsHome = isWithin(path, home);
  const holdsUserHome = isWithin(path, userHome);
  if (path === sep || holdsHome || holdsUserHome) {
    const what =
      path === sep
        ? 'the whole machine'
        : holdsUserHome && path !== userHome
          ? 'every file of every user folder it holds'
          : 'your whole home folder';
    return refuse(
      `The workspace ${shown} is too wide: the agent would see ${what}${holdsHome ? `, including ${home} (API keys, other sessions)` : ''}`,
      'Choose the project folder the agent should work on.',
    );
  }
  if (isWithin(home, path)) {
    return refuse(
      `The workspace ${shown} is inside the app's own folder ${home}`,
      'Choose a folder of your own.',
    );
  }
  // (not the one that is the user's home: root's projects live in /root)
  const system = SYSTEM_FOLDERS.map(realOrResolved).find(
    (dir) => isWithin(dir, path) && !isWithin(dir, userHome),
  );
  if (system) {
    return refuse(
      `The workspace ${shown} is a system folder (${system}), not a project`,
      'Choose the project folder the agent should work on.',
    );
  }
  if (choice.mode === 'mount') {
    try {
      accessSync(path, constants.R_OK | constants.W_OK | constants.X_OK);
    } catch {
      return refuse(
        `The workspace ${shown} is not writable by this app`,
        'Fix its permissions, or run on an isolated copy.',
      );
    }
    if (process.getuid?.() === 0 && stat.uid === 0) {
      return {
        realPath: path,
        check: {
          id: 'workspace',
          status: 'warn',
          message: `${shown} belongs to root: the sandbox never runs as root, so the agent cannot write there`,
          fix: 'Give the folder to a normal user (chown), or run on an isolated copy.',
        },
      };
    }
    return {
      realPath: path,
      check: {
        id: 'workspace',
        status: 'ok',
        message: `${shown} is mounted read-write at ${context.settings.work_dir}: the agent's edits land in this folder`,
      },
    };
  }
  const limit = parseByteSize(context.settings.workspace_limit);
  const bytes = await workspaceBytes(path, limit);
  if (bytes > limit) {
    return refuse(
      `The workspace ${shown} is larger than [sandbox] workspace_limit = "${context.settings.workspace_limit}"`,
      'Mount it instead of copying it, or raise workspace_limit in Settings → Sandbox.',
    );
  }
  return {
    realPath: path,
    check: {
      id: 'workspace',
      status: 'ok',
      message: `${shown} is copied for this run (the original is not changed)`,
    },
  };
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
