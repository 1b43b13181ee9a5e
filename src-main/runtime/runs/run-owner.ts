/**
 * Which process is writing a run: `<runId>.owner` names its pid while the log is open, so
 * another process sharing the home shows the run as running, not interrupted.
 *
 * The file is created with room to spare (RESERVE_BYTES, flushed to disk), because it has
 * a second job when the disk fills up (issue 12 item 9): a run whose log could not be
 * completed still ends, and its summary is written into this file, in place, into space
 * the disk already gave it. A later start then shows the run as what it was (finished,
 * history incomplete) instead of "interrupted".
 */
import { closeSync, fsyncSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { RunSummary } from '@shared/ipc';
import { writeFileAtomic } from '../config/atomic-write';

/** Enough for a summary with a long task and error (both are shortened to fit). */
export const RESERVE_BYTES = 8 * 1024;

interface OwnerFile {
  pid: number;
  /** set when the run ended but its log is incomplete */
  finished?: RunSummary;
}

/** Marks this process as the writer of `runId`, reserving room for a finish record. */
export function claimRun(dir: string, runId: string): void {
  writeFileAtomic(ownerPath(dir, runId), padded({ pid: process.pid }), 0o600);
}

/** Drops the owner mark (the log is closed, or its writer is gone). */
export function releaseRun(dir: string, runId: string): void {
  rmSync(ownerPath(dir, runId), { force: true });
}

/**
 * Writes the run's final summary over the owner mark, in place and at the same size, so
 * a full disk has nothing new to allocate. Throws when even that fails.
 */
export function writeFinishRecord(dir: string, runId: string, summary: RunSummary): void {
  const fd = openSync(ownerPath(dir, runId), 'r+');
  try {
    const data = Buffer.from(padded({ pid: process.pid, finished: fitted(summary) }), 'utf8');
    let offset = 0;
    while (offset < data.length)
      offset += writeSync(fd, data, offset, data.length - offset, offset);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The summary a finish record holds, or null when there is none. */
export function readFinishRecord(dir: string, runId: string): RunSummary | null {
  const file = readOwnerFile(dir, runId);
  const finished = file?.finished;
  return finished && finished.runId === runId ? finished : null;
}

function ownerPath(dir: string, runId: string): string {
  return join(dir, `${runId}.owner`);
}

function readOwnerFile(dir: string, runId: string): OwnerFile | null {
  try {
    const text = readFileSync(ownerPath(dir, runId), 'utf8');
    const value = JSON.parse(text.trimEnd()) as OwnerFile;
    return typeof value === 'object' && value !== null ? value : null;
  } catch {
    return null;
  }
}

/** JSON padded with spaces to RESERVE_BYTES (JSON allows trailing whitespace). */
function padded(value: OwnerFile): string {
  const text = JSON.stringify(value);
  return text.length >= RESERVE_BYTES ? text : text.padEnd(RESERVE_BYTES, ' ');
}

/** Shortens the free-text fields until the record fits the reserved space. */
function fitted(summary: RunSummary): RunSummary {
  let fit = summary;
  for (const max of [2000, 500, 100]) {
    if (Buffer.byteLength(JSON.stringify({ pid: process.pid, finished: fit })) <= RESERVE_BYTES) {
      return fit;
    }
    fit = {
      ...summary,
      task: summary.task.slice(0, max),
      ...(summary.error !== undefined ? { error: summary.error.slice(0, max) } : {}),
    };
  }
  return fit;
}

/** true when this process claimed the run and has not finished it (a run starting here) */
export function isClaimedHere(dir: string, runId: string): boolean {
  const file = readOwnerFile(dir, runId);
  return file !== null && !file.finished && file.pid === process.pid;
}

/** true when another live process is writing this run */
export function isOwnedByLiveProcess(dir: string, runId: string): boolean {
  const file = readOwnerFile(dir, runId);
  // A finish record means the run is over, whoever wrote it.
  if (!file || file.finished) return false;
  const pid: unknown = file.pid;
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return false;
  // Our own pid here means a previous life of this process id: this process has no
  // writer for the run (checked before), so the run is not going on.
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
