/**
 * Writes a file so that a crash at any moment leaves either the old file or the new one,
 * never a torn mix: write a temporary file next to it, fsync it, rename it over the
 * target, fsync the folder (reliability.md P2: naive rewrites were unparsable in 16 of
 * 100 kills, this in 0).
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

export function writeFileAtomic(file: string, content: string, mode = 0o600): void {
  const tmp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number | null = null;
  try {
    fd = openSync(tmp, 'wx', mode);
    writeSync(fd, content);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    renameSync(tmp, file);
  } catch (error) {
    if (fd !== null) closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  try {
    // The rename itself is durable only once the folder is synced (not on every platform).
    const dirFd = openSync(dirname(file), 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    // Windows cannot open a folder this way; the rename is still atomic there.
  }
}
