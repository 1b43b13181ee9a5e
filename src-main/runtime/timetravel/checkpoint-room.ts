/**
 * How many bytes a run's next snapshot may take (issue 24 item 3): the least of what is
 * left under its own cap (`[history] snapshot_run_limit`), under the budget of all runs
 * (`snapshot_budget`; the other runs' snapshots can be evicted, the writing run's own
 * cannot, so they count against it), and on the disk, less a reserve kept for the run
 * histories themselves (a snapshot must never be what makes the next event fail to save).
 */
import { statfsSync } from 'node:fs';
import type { CheckpointLimitReason } from '@shared/events';

export interface CheckpointLimits {
  /** all runs' snapshots together ([history] snapshot_budget) */
  budget: number;
  /** one run's snapshots ([history] snapshot_run_limit) */
  runLimit: number;
  /** one step's snapshot ([history] snapshot_step_limit) */
  stepLimit: number;
}

export interface Room {
  /** bytes the next snapshot may take (0 or less: none) */
  bytes: number;
  /** which limit that is */
  reason: Exclude<CheckpointLimitReason, 'step_limit' | 'too_deep'>;
  /** the limit, in bytes (for the disk: what it has free) */
  limit: number;
}

export interface DiskSpace {
  free: number;
  total: number;
}

/** The file system holding `dir`: bytes free for this user, and its size. */
export function diskSpace(dir: string): DiskSpace | undefined {
  try {
    const s = statfsSync(dir);
    return { free: s.bavail * s.bsize, total: s.blocks * s.bsize };
  } catch {
    return undefined;
  }
}

/** Kept free for the histories: 5% of the disk, at most 512 MB. */
export function diskReserve(total: number): number {
  return Math.min(512 * 1024 * 1024, Math.ceil(total * 0.05));
}

/**
 * `copies`: how many times the snapshot's bytes are on the disk at once while it is
 * written (2 for a host snapshot: its staged copies and the archive written from them,
 * until the copies are removed); the caps on kept snapshots count the archive once.
 */
export function roomFor(
  limits: CheckpointLimits,
  runBytes: number,
  disk: DiskSpace | undefined,
  copies = 1,
): Room {
  const rooms: Room[] = [
    { bytes: limits.runLimit - runBytes, reason: 'run_limit', limit: limits.runLimit },
    { bytes: limits.budget - runBytes, reason: 'budget', limit: limits.budget },
  ];
  if (disk) {
    rooms.push({
      bytes: Math.floor((disk.free - diskReserve(disk.total)) / copies),
      reason: 'disk_full',
      limit: disk.free,
    });
  }
  return rooms.reduce((least, room) => (room.bytes < least.bytes ? room : least));
}
