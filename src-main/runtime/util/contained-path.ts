/**
 * Paths that come from users (or from anything that can write their files) and become a
 * host path or a container mount: each one is resolved and checked to stay under its
 * root before it is used (issue 12 item 2). A session id `..` made the workspace
 * WORKBENCH_HOME itself, chowned and mounted read-write into the sandbox, where code
 * rewrote config.toml; `scenario = "../../etc/passwd"` read a host file.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { isAbsolute, posix, relative, resolve, sep } from 'node:path';

export class PathEscapeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PathEscapeError';
  }
}

/** `path` is `root` itself or below it (both absolute, already resolved). */
export function isWithin(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * `child` (relative, or absolute) resolved against `root`; throws when the result is not
 * strictly below `root` (the root itself does not count: a workspace may not be its parent).
 */
export function resolveInside(root: string, child: string, what: string): string {
  if (child.includes('\0')) throw new PathEscapeError(`${what} contains a NUL byte`);
  const base = resolve(root);
  const target = resolve(base, child);
  if (target === base || !isWithin(base, target)) {
    throw new PathEscapeError(`${what} "${child}" is outside ${base}`);
  }
  return target;
}

/**
 * Follows symbolic links on both sides and checks again, so a link placed inside the root
 * cannot lead out of it. The path must exist.
 */
export function assertRealInside(root: string, path: string, what: string): string {
  const realRoot = realpathSync(root);
  const real = realpathSync(path);
  if (real === realRoot || !isWithin(realRoot, real)) {
    throw new PathEscapeError(`${what} ${path} leads outside ${realRoot} (to ${real})`);
  }
  return real;
}

/** Throws when `path` is a symbolic link (chown and bind mounts would follow it). */
export function assertNotSymlink(path: string, what: string): void {
  if (lstatSync(path).isSymbolicLink()) {
    throw new PathEscapeError(`${what} ${path} is a symbolic link; refusing to use it`);
  }
}

/**
 * The system folders of a Linux file system: never a workspace on the host
 * (launch/workspace-gate.ts), never where one is mounted in the sandbox.
 */
export const LINUX_SYSTEM_DIRS = [
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/proc',
  '/run',
  '/sbin',
  '/sys',
  '/usr',
  '/var/run',
];

/**
 * Folders of a Linux image a bind mount must never cover: mounting the workspace over
 * them (or over `/`) would replace the system inside the sandbox, or collide with the
 * sandbox's own /tmp.
 */
const SYSTEM_DIRS = [...LINUX_SYSTEM_DIRS, '/tmp'];

/** Why `path` cannot be the sandbox's working folder, or null when it can. */
export function containerDirProblem(path: string): string | null {
  if (!path.startsWith('/')) return 'must be an absolute path';
  if (path.includes('\0')) return 'must not contain a NUL byte';
  if (path.includes(':')) return 'must not contain ":" (it separates the parts of a bind mount)';
  const normalized = posix.normalize(path);
  if (normalized !== path || /\/\.{1,2}(\/|$)/.test(path) || (path !== '/' && path.endsWith('/'))) {
    return `must be a plain absolute path without "." or ".." parts (did you mean "${normalized.replace(/\/+$/, '') || '/'}"?)`;
  }
  if (path === '/') return 'must not be "/" (the workspace would replace the whole file system)';
  const system = SYSTEM_DIRS.find((dir) => path === dir || path.startsWith(`${dir}/`));
  if (system) return `must not be ${system} or inside it (a system folder of the sandbox)`;
  return null;
}
