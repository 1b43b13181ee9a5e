/**
 * Reading a workspace folder the sandbox is writing right now (the live view of the
 * running step, issue 32): the same rules as the host snapshot (host-snapshot.ts), since
 * the sandbox may swap any name for a symlink to a host file at any moment. Each folder
 * is held open and every name is looked up in it (dir-fd.ts); a symlink is listed by its
 * text and never followed; files are opened with O_NOFOLLOW and their type, size and
 * device are taken from the open descriptor; nothing on another file system (a mount
 * inside) is listed or read. The listing stops at `maxEntries`, folders deeper than
 * MAX_DEPTH are listed but not entered.
 */
import { fstatSync, readSync, type Stats } from 'node:fs';
import type { WorkspaceEntryKind } from '@shared/domain/files';
import {
  closeQuietly,
  listDir,
  lstatAt,
  openDirAt,
  openFileAt,
  openRoot,
  readlinkAt,
} from '../util/dir-fd';
import { pacer } from './file-regions';

/** Folders open at once while walking (as the snapshot): deeper ones are not entered. */
export const MAX_DEPTH = 256;

export interface LiveRawEntry {
  path: string;
  kind: WorkspaceEntryKind;
  size: number;
  mtimeMs: number;
  /** what identifies this version of it (inode, size, ctime): a compare is cached under it */
  version: string;
  /** a symlink's text */
  target?: string;
}

export interface LiveListing {
  entries: LiveRawEntry[];
  /** the listing stopped at the cap */
  isTruncated: boolean;
  /** folders not entered (too deep) */
  tooDeep: number;
}

/** Which regular files the caller reads during the walk (to compare their bytes). */
export interface LiveFileReader {
  /** whether to open this one (from its lstat: most are not opened at all) */
  wants(entry: LiveRawEntry): boolean;
  /** the file open for reading, with its stat from the descriptor */
  read(entry: LiveRawEntry, fd: number, stat: Stats): void;
}

/** Every entry below `root` (sorted by path), up to `maxEntries`. */
export async function listLive(
  root: string,
  maxEntries: number,
  reader?: LiveFileReader,
): Promise<LiveListing> {
  const rootFd = openRoot(root);
  const listing: LiveListing = { entries: [], isTruncated: false, tooDeep: 0 };
  // gives way to the event loop every few ms: the run goes on in this process meanwhile
  const pace = pacer();
  try {
    const dev = fstatSync(rootFd).dev;
    const walk = async (dirFd: number, prefix: string, depth: number): Promise<void> => {
      let names: string[];
      try {
        names = listDir(dirFd);
      } catch {
        return; // removed meanwhile
      }
      for (const name of names.sort()) {
        await pace();
        if (listing.entries.length >= maxEntries) {
          listing.isTruncated = true;
          return;
        }
        const path = prefix ? `${prefix}/${name}` : name;
        const stat = lstatAt(dirFd, name);
        if (!stat || stat.dev !== dev) continue; // gone, or another file system
        const entry: LiveRawEntry = {
          path,
          kind: kindOf(stat),
          size: stat.isFile() ? stat.size : 0,
          mtimeMs: Math.round(stat.mtimeMs),
          version: `${stat.ino}:${stat.size}:${stat.ctimeMs}`,
        };
        listing.entries.push(entry);
        if (entry.kind === 'symlink') {
          const target = readlinkAt(dirFd, name);
          if (target !== undefined) {
            entry.target = target;
            entry.size = Buffer.byteLength(target);
          }
        } else if (entry.kind === 'folder') {
          if (depth >= MAX_DEPTH) {
            listing.tooDeep++;
            continue;
          }
          const child = openDirAt(dirFd, name);
          if (child === undefined) continue; // a link now: never followed
          try {
            const opened = fstatSync(child);
            if (opened.isDirectory() && opened.dev === dev) await walk(child, path, depth + 1);
          } finally {
            closeQuietly(child);
          }
        } else if (entry.kind === 'file' && reader?.wants(entry)) {
          const fd = openFileAt(dirFd, name);
          if (fd === undefined) continue; // a link now, or gone
          try {
            const opened = fstatSync(fd);
            if (opened.isFile() && opened.dev === dev) reader.read(entry, fd, opened);
          } finally {
            closeQuietly(fd);
          }
        }
      }
    };
    await walk(rootFd, '', 0);
  } finally {
    closeQuietly(rootFd);
  }
  listing.entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return listing;
}

/** What one path of the workspace is now: looked up one name at a time, never through a link. */
export type LiveLookup =
  | { kind: 'file'; size: number; bytes: Buffer }
  | { kind: 'symlink'; target: string }
  | { kind: 'folder' | 'other' | 'missing'; why: string };

/**
 * The path's bytes (at most `maxBytes` of them, from its open descriptor) or link text.
 * A folder on the way that is a link, or on another file system, makes it `missing`.
 */
export function readLive(root: string, path: string, maxBytes: number): LiveLookup {
  const parts = path.split('/');
  const rootFd = openRoot(root);
  const open = [rootFd];
  try {
    const dev = fstatSync(rootFd).dev;
    let dirFd = rootFd;
    for (const part of parts.slice(0, -1)) {
      const child = openDirAt(dirFd, part);
      if (child === undefined) return { kind: 'missing', why: `${part} is not a folder` };
      open.push(child);
      if (fstatSync(child).dev !== dev)
        return { kind: 'missing', why: `${part} is another file system` };
      dirFd = child;
    }
    const name = parts.at(-1)!;
    const stat = lstatAt(dirFd, name);
    if (!stat || stat.dev !== dev) return { kind: 'missing', why: 'no such file' };
    if (stat.isSymbolicLink()) {
      const target = readlinkAt(dirFd, name);
      return target === undefined
        ? { kind: 'missing', why: 'no such file' }
        : { kind: 'symlink', target };
    }
    if (stat.isDirectory()) return { kind: 'folder', why: 'a folder' };
    if (!stat.isFile()) return { kind: 'other', why: 'not a regular file' };
    const fd = openFileAt(dirFd, name);
    if (fd === undefined) return { kind: 'missing', why: 'changed while being opened' };
    try {
      const opened = fstatSync(fd);
      if (!opened.isFile() || opened.dev !== dev) {
        return { kind: 'other', why: 'not a regular file' };
      }
      return {
        kind: 'file',
        size: opened.size,
        bytes: readUpTo(fd, Math.min(opened.size, maxBytes)),
      };
    } finally {
      closeQuietly(fd);
    }
  } finally {
    for (const fd of open) closeQuietly(fd);
  }
}

/** Up to `length` bytes from the start of the open file (fewer if it shrank meanwhile). */
export function readUpTo(fd: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let at = 0;
  while (at < length) {
    const n = readSync(fd, buffer, at, length - at, at);
    if (n === 0) break;
    at += n;
  }
  return at === length ? buffer : buffer.subarray(0, at);
}

function kindOf(stat: Stats): WorkspaceEntryKind {
  if (stat.isDirectory()) return 'folder';
  if (stat.isFile()) return 'file';
  if (stat.isSymbolicLink()) return 'symlink';
  return 'other';
}
