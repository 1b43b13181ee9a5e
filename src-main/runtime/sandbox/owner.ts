/**
 * Who owns a sandbox container. Several app instances (a desktop window, a CLI run, the
 * test suite) can share one Docker engine, so the start-up sweep must remove only the
 * containers of instances that are gone: same machine, owner process no longer alive
 * (or its pid reused by another process, told apart by the process start time).
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { LABELS, type OwnerLabels } from './container-policy';

export function currentOwner(instanceId: string = randomUUID()): OwnerLabels {
  return {
    instanceId,
    host: hostname(),
    pid: process.pid,
    pidStart: processStartTime(process.pid) ?? '',
  };
}

/** Linux: the start time of a process in clock ticks since boot; null elsewhere or if gone. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses; fields restart after the last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return rest[19] ?? null; // field 22 overall
  } catch {
    return null;
  }
}

export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export type OwnerVerdict = 'self' | 'alive' | 'gone' | 'foreign-host';

/** Decides whether a managed container's owner is still around. */
export function ownerVerdict(labels: Record<string, string>, self: OwnerLabels): OwnerVerdict {
  if (labels[LABELS.instance] === self.instanceId) return 'self';
  const host = labels[LABELS.host];
  if (host !== undefined && host !== self.host) return 'foreign-host';
  const pid = Number(labels[LABELS.pid]);
  if (!isProcessAlive(pid)) return 'gone';
  const recorded = labels[LABELS.pidStart];
  if (recorded) {
    const now = processStartTime(pid);
    if (now !== null && now !== recorded) return 'gone';
  }
  return 'alive';
}
