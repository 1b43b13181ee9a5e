/**
 * The copy of a chosen folder for an isolated run (`--isolated`, batch tasks), walked by
 * open folder descriptors like the host snapshot (timetravel/dir-fd.ts): the folder may
 * be mounted read-write into another live sandbox at the same moment, where an agent can
 * swap any of its names for a symlink. A copy that looks with lstat and then follows the
 * path (Node's cpSync) would copy what the link points at on the host (a folder swapped
 * for a link to ~/.ssh) into the new run's sandbox. Here every name is looked up in a
 * folder already held open, with O_NOFOLLOW, and a file is copied through its own open
 * descriptor; links are copied as links (their text, never followed); sockets, FIFOs and
 * devices are left out. Where descriptor walking is not available (not Linux), cpSync
 * with the same rules is used.
 */
import {
  chmodSync,
  copyFileSync,
  cpSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  symlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { closeQuietly, isDirFdSupported, openRoot, walkTree } from '../util/dir-fd';

export function copyFolder(source: string, dest: string): void {
  if (!isDirFdSupported(source)) {
    cpSync(source, dest, {
      recursive: true,
      dereference: false,
      verbatimSymlinks: true,
      filter: (path) => {
        const stat = lstatSync(path);
        return stat.isDirectory() || stat.isFile() || stat.isSymbolicLink();
      },
    });
    return;
  }
  const rootFd = openRoot(source);
  try {
    mkdirSync(dest, { recursive: true });
    walkTree(rootFd, {
      folder: (path, _fd, stat) => {
        const target = join(dest, path);
        mkdirSync(target);
        // after its entries: a read-only folder is copied read-only, and filled first
        return () => chmodSync(target, stat.mode & 0o7777);
      },
      file: (path, fd, stat) => {
        // /proc/self/fd/N opens the very file held open, not the name again
        copyFileSync(`/proc/self/fd/${fd}`, join(dest, path));
        chmodSync(join(dest, path), stat.mode & 0o7777);
      },
      link: (path, target) => symlinkSync(target, join(dest, path)),
    });
    chmodSync(dest, fstatSync(rootFd).mode & 0o7777);
  } finally {
    closeQuietly(rootFd);
  }
}
