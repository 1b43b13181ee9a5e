/**
 * Looking inside a folder through its open descriptor, never through a path that is
 * resolved again (issue 24 item 1). The sandbox can swap any name in the workspace for a
 * symlink at any moment, so "lstat says it is a file, then open the path" reads whatever
 * the link points at on the host, and a folder swapped for a link makes every later path
 * through it lead out of the workspace (O_NOFOLLOW guards only the last component).
 *
 * Node has no openat(2); on Linux `/proc/self/fd/<fd>/<name>` is the same thing: the
 * kernel resolves `/proc/self/fd/<fd>` to the open folder itself (wherever it has been
 * moved, whatever now has its old path), then looks `<name>` up in it. Each lookup
 * below is one name in a folder already held open, with O_NOFOLLOW on that name.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
} from 'node:fs';
import type { Stats } from 'node:fs';

const PROC_FD = '/proc/self/fd';
const { O_RDONLY, O_WRONLY, O_CREAT, O_TRUNC, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } =
  constants;

/** `name` inside the folder open as `dirFd`, for the path-taking calls below. */
function at(dirFd: number, name: string): string {
  return `${PROC_FD}/${dirFd}/${name}`;
}

/** Opens the workspace root (a path the app chose: following it is fine). */
export function openRoot(root: string): number {
  return openSync(root, O_RDONLY | O_DIRECTORY);
}

/** The names in the open folder. */
export function listDir(dirFd: number): string[] {
  return readdirSync(`${PROC_FD}/${dirFd}`);
}

/** What `name` is itself (a link is a link), or undefined when it is gone. */
export function lstatAt(dirFd: number, name: string): Stats | undefined {
  try {
    return lstatSync(at(dirFd, name));
  } catch {
    return undefined;
  }
}

/** The folder `name`, opened; undefined when it is not a folder now (swapped for a link: ELOOP). */
export function openDirAt(dirFd: number, name: string): number | undefined {
  try {
    return openSync(at(dirFd, name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch {
    return undefined;
  }
}

/**
 * `name` opened for reading; undefined when it is a link now (ELOOP), a socket, or gone.
 * O_NONBLOCK: a FIFO opens at once instead of waiting for a writer (and is then refused
 * by its fstat); O_NOCTTY: a terminal never becomes the app's.
 */
export function openFileAt(dirFd: number, name: string): number | undefined {
  try {
    return openSync(at(dirFd, name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  } catch {
    return undefined;
  }
}

/**
 * The folder `name` inside the open folder, made when missing, and opened; undefined when
 * `name` is something else (a link to a host folder, a file). mkdir never follows a link
 * in its last component, and the open refuses one.
 */
export function ensureDirAt(dirFd: number, name: string, mode = 0o755): number | undefined {
  try {
    mkdirSync(at(dirFd, name), { mode });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
  }
  return openDirAt(dirFd, name);
}

/**
 * `name` inside the open folder, created or emptied, opened for writing; undefined when
 * it is a link (ELOOP: a write through it would land wherever it points on the host), a
 * FIFO without a reader, or cannot be written.
 */
export function createFileAt(dirFd: number, name: string, mode = 0o644): number | undefined {
  try {
    const fd = openSync(
      at(dirFd, name),
      O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY,
      mode,
    );
    if (fstatSync(fd).isFile()) return fd;
    closeQuietly(fd);
    return undefined;
  } catch {
    return undefined;
  }
}

/** The target of the link `name` (its text only: nothing is followed). */
export function readlinkAt(dirFd: number, name: string): string | undefined {
  try {
    return readlinkSync(at(dirFd, name));
  } catch {
    return undefined;
  }
}

export function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

/**
 * Whether descriptor-relative lookups work here: Linux with /proc mounted, and a folder
 * opened there is the one `/proc/self/fd/<fd>` leads to. Elsewhere the host snapshot is
 * not safe and the in-container one is used.
 */
export function isDirFdSupported(root: string): boolean {
  if (process.platform !== 'linux' || O_NOFOLLOW === undefined || O_DIRECTORY === undefined) {
    return false;
  }
  let fd: number | undefined;
  try {
    fd = openRoot(root);
    const direct = fstatSync(fd);
    const viaProc = lstatSync(`${PROC_FD}/${fd}/.`);
    return direct.ino === viaProc.ino && direct.dev === viaProc.dev;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
}

/** What `walkTree` hands over: paths are relative to the root, with `/`. */
export interface TreeVisitor {
  /**
   * a folder (not the root), held open while its entries are visited; a function it
   * returns runs after them
   */
  folder(path: string, fd: number, stat: Stats): (() => void) | void;
  /** a regular file, open for reading (type and size from its own descriptor) */
  file(path: string, fd: number, stat: Stats): void;
  /** a symbolic link, by its text (never followed) */
  link?(path: string, target: string): void;
}

/**
 * Every folder, regular file and link below the open folder `rootFd`, each looked up in
 * the folder already held open (a name swapped for a link meanwhile is never followed);
 * other kinds (FIFOs, sockets, devices) are left out. Names in `sorted` order if asked.
 */
export function walkTree(
  rootFd: number,
  visit: TreeVisitor,
  options: { sorted?: boolean } = {},
): void {
  const walk = (dirFd: number, prefix: string) => {
    const names = listDir(dirFd);
    if (options.sorted) names.sort();
    for (const name of names) {
      const path = prefix ? `${prefix}/${name}` : name;
      const stat = lstatAt(dirFd, name);
      if (stat?.isDirectory()) {
        const fd = openDirAt(dirFd, name);
        if (fd === undefined) continue; // not a folder any more (swapped for a link)
        try {
          const after = visit.folder(path, fd, fstatSync(fd));
          walk(fd, path);
          after?.();
        } finally {
          closeQuietly(fd);
        }
      } else if (stat?.isFile()) {
        const fd = openFileAt(dirFd, name);
        if (fd === undefined) continue; // a link now, or gone
        try {
          const opened = fstatSync(fd);
          if (opened.isFile()) visit.file(path, fd, opened);
        } finally {
          closeQuietly(fd);
        }
      } else if (stat?.isSymbolicLink() && visit.link) {
        const target = readlinkAt(dirFd, name);
        if (target !== undefined) visit.link(path, target);
      }
    }
  };
  walk(rootFd, '');
}
