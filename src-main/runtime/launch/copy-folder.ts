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
import {
  closeQuietly,
  isDirFdSupported,
  listDir,
  lstatAt,
  openDirAt,
  openFileAt,
  openRoot,
  readlinkAt,
} from '../util/dir-fd';

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
    copyEntries(rootFd, dest);
    chmodSync(dest, fstatSync(rootFd).mode & 0o7777);
  } finally {
    closeQuietly(rootFd);
  }
}

function copyEntries(dirFd: number, dest: string): void {
  for (const name of listDir(dirFd)) {
    const stat = lstatAt(dirFd, name);
    if (!stat) continue; // gone meanwhile
    const target = join(dest, name);
    if (stat.isDirectory()) {
      const fd = openDirAt(dirFd, name);
      if (fd === undefined) continue; // not a folder any more (swapped for a link)
      try {
        mkdirSync(target);
        copyEntries(fd, target);
        // after its entries: a read-only folder is copied read-only, and filled first
        chmodSync(target, fstatSync(fd).mode & 0o7777);
      } finally {
        closeQuietly(fd);
      }
    } else if (stat.isFile()) {
      const fd = openFileAt(dirFd, name);
      if (fd === undefined) continue; // a link now, or gone
      try {
        const opened = fstatSync(fd);
        if (!opened.isFile()) continue;
        // /proc/self/fd/N opens the very file held open, not the name again
        copyFileSync(`/proc/self/fd/${fd}`, target);
        chmodSync(target, opened.mode & 0o7777);
      } finally {
        closeQuietly(fd);
      }
    } else if (stat.isSymbolicLink()) {
      const link = readlinkAt(dirFd, name);
      if (link !== undefined) symlinkSync(link, target);
    }
  }
}
