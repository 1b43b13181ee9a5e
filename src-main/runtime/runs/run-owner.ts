/**
 * Which process is writing a run: `<runId>.owner` names its pid while the log is open, so
 * another process sharing the home shows the run as running, not interrupted.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../config/atomic-write';

/** Marks this process as the writer of `runId`. */
export function claimRun(dir: string, runId: string): void {
  writeFileAtomic(ownerPath(dir, runId), JSON.stringify({ pid: process.pid }), 0o600);
}

/** Drops the owner mark (the log is closed, or its writer is gone). */
export function releaseRun(dir: string, runId: string): void {
  rmSync(ownerPath(dir, runId), { force: true });
}

function ownerPath(dir: string, runId: string): string {
  return join(dir, `${runId}.owner`);
}

/** true when another live process is writing this run */
export function isOwnedByLiveProcess(dir: string, runId: string): boolean {
  let pid: unknown;
  try {
    pid = (JSON.parse(readFileSync(ownerPath(dir, runId), 'utf8')) as { pid?: unknown }).pid;
  } catch {
    return false;
  }
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
