/**
 * An engine on another machine binds the workspace path of *its* machine, where the
 * session's folder (a batch task's copy, a fork's restored files) does not exist: its
 * sandbox would start empty. So a sandbox on an engine that is not the local socket is
 * asked whether it sees the folder, and when it does not, the folder's files are sent
 * through the archive API. Decided by the engine's answer, never by its address: a TCP
 * engine on loopback, or ssh to this machine, binds this very folder (then nothing is
 * copied). What the agent changes stays on the engine's side, as with any remote engine.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxUser } from './container-policy';
import type { ContainerEngine } from './engine';
import { SandboxError } from './errors';
import { runOneShot } from './one-shot-exec';
import { createTar, type TarFileInput } from './tar-archive';
import { closeQuietly, isDirFdSupported, openRoot, walkTree } from '../util/dir-fd';

/** More than this is refused: it travels in memory, and a remote workspace is for tasks. */
export const SEED_LIMIT_BYTES = 256 * 1024 * 1024;

export type SeedOutcome = 'missing' | 'shared' | 'seeded';

export interface SeedTarget {
  engine: ContainerEngine;
  containerId: string;
  workDir: string;
  user: SandboxUser;
}

/**
 * Runs before the sandbox is handed out, straight on the engine: no `busy`/`idle` events
 * for a command nobody asked for, and no process-table look after it.
 */
export async function seedUnsharedWorkspace(
  target: SeedTarget,
  hostDir: string,
  options: { signal?: AbortSignal } = {},
): Promise<SeedOutcome> {
  if (!existsSync(hostDir)) return 'missing'; // nothing here to send
  // A marker only this side writes: the container sees it iff the folder is shared.
  const marker = `.workbench-mount-probe-${randomUUID()}`;
  writeFileSync(join(hostDir, marker), '');
  let isShared: boolean;
  try {
    const probe = await runOneShot(
      {
        engine: target.engine,
        containerId: target.containerId,
        user: `${target.user.uid}:${target.user.gid}`,
        kill: async () => undefined, // `test -e` ends at once
      },
      ['test', '-e', `${target.workDir}/${marker}`],
      { timeoutMs: 30_000, ...(options.signal ? { signal: options.signal } : {}) },
    );
    isShared = probe.exitCode === 0;
  } finally {
    rmSync(join(hostDir, marker), { force: true });
  }
  if (isShared) return 'shared';
  // The files and folders are the sandbox user's; the workspace folder itself stays as the
  // engine made it, owned by root: Docker skips the entry '.' of an existing folder, the
  // root filesystem (its parent) is read-only, and the sandbox has no CAP_CHOWN. So on
  // such an engine the agent writes inside the task's files and folders, not beside them.
  const owned = folderEntries(hostDir).map((entry) => ({
    ...entry,
    uid: target.user.uid,
    gid: target.user.gid,
  }));
  await target.engine.putArchive(
    target.containerId,
    target.workDir,
    await createTar(owned),
    options,
  );
  return 'seeded';
}

/**
 * The folder's files and folders as archive entries (links are left out: they could point
 * anywhere here). Walked by open folder descriptors where the platform allows
 * (util/dir-fd.ts): a name swapped for a link meanwhile is never followed.
 */
function folderEntries(root: string): TarFileInput[] {
  const entries: TarFileInput[] = [];
  let bytes = 0;
  const count = (size: number) => {
    bytes += size;
    if (bytes > SEED_LIMIT_BYTES) {
      throw new SandboxError(
        'workspace_full',
        `The workspace ${root} holds more than ${SEED_LIMIT_BYTES / 1024 ** 2} MB, too much ` +
          'to send to an engine on another machine; use a smaller task folder, or an ' +
          'engine on this machine ([sandbox] engines).',
      );
    }
  };
  if (!isDirFdSupported(root)) {
    const walk = (relative: string) => {
      for (const name of readdirSync(join(root, relative)).sort()) {
        const path = relative ? `${relative}/${name}` : name;
        const stat = lstatSync(join(root, path));
        if (stat.isDirectory()) {
          entries.push({ path, type: 'directory', mode: stat.mode & 0o7777 });
          walk(path);
        } else if (stat.isFile()) {
          count(stat.size);
          const data = readFileSync(join(root, path));
          entries.push({ path, data, mode: stat.mode & 0o7777, mtime: stat.mtime });
        }
      }
    };
    walk('');
    return entries;
  }
  const rootFd = openRoot(root);
  try {
    walkTree(
      rootFd,
      {
        folder: (path, _fd, stat) => {
          entries.push({ path, type: 'directory', mode: stat.mode & 0o7777 });
        },
        file: (path, fd, stat) => {
          count(stat.size);
          const data = readFileSync(fd);
          entries.push({ path, data, mode: stat.mode & 0o7777, mtime: stat.mtime });
        },
      },
      { sorted: true },
    );
  } finally {
    closeQuietly(rootFd);
  }
  return entries;
}
