/**
 * The workspace folder as a sandbox mounts it: whom the sandbox runs as for a folder of
 * the user's own, and handing the app's own session folders to the sandbox user.
 */
import { chownSync, existsSync, lstatSync, mkdirSync, statSync } from 'node:fs';
import type { Session } from '../session/session';
import type { SandboxUser } from './container-policy';
import type { EngineInfo } from './engine';
import { SandboxError } from './errors';

/**
 * A folder of the user's own is never chowned. When the app runs as root, the sandbox
 * runs as the folder's owner instead (never as root), so what the agent writes keeps
 * the owner of the folder; as a normal user it is that user already.
 */
export function sandboxUserFor(session: Session, defaultUser: SandboxUser): SandboxUser {
  if (!session.isUserFolder || process.getuid?.() !== 0) return defaultUser;
  try {
    const stat = statSync(session.workspaceDir);
    if (stat.uid !== 0) return { uid: stat.uid, gid: stat.gid === 0 ? stat.uid : stat.gid };
  } catch {
    // a folder that vanished fails at container creation with its own message
  }
  return defaultUser;
}

/**
 * The workspace folder is bound into the container, where the sandbox user must be able
 * to write. When the app runs as root (containers, CI) that user is 1000, so the folder
 * is handed to it; a normal user's folder already belongs to the sandbox user (same uid).
 * An engine behind TCP may share this machine's folders (a dockerd on loopback) or not
 * (another machine): the folder here is the app's own, so it is prepared either way,
 * never created for a remote engine.
 */
export function prepareWorkspace(dir: string, engine: EngineInfo, user: SandboxUser): void {
  if (engine.isLocal) mkdirSync(dir, { recursive: true });
  else if (!existsSync(dir)) return; // only the engine's machine has it

  // chown and the bind mount follow links: a workspace must be a real folder.
  const stat = lstatSync(dir);
  if (!stat.isDirectory()) {
    throw new SandboxError(
      'internal',
      `The workspace ${dir} is not a plain folder (a symbolic link?); refusing to mount it`,
    );
  }
  if (process.getuid?.() !== 0) return;
  if (stat.uid !== user.uid) chownSync(dir, user.uid, user.gid);
}
