/**
 * What one workspace snapshot may take on disk (issue 24 item 3), for both methods (the
 * host walk and the in-container tar). The recorder works the figures out from
 * `[history]` and the disk: `stepBytes` from `snapshot_step_limit`, `roomBytes` from what
 * the run may still add under `snapshot_run_limit` and `snapshot_budget` and what the
 * disk has free.
 */
export interface SnapshotCaps {
  /** bytes one step's archive may take: a file that would take it past this is left out, with the reason */
  stepBytes: number;
  /** bytes the archive may take at all: past it the snapshot fails with SnapshotLimitError */
  roomBytes: number;
}

export const NO_CAPS: SnapshotCaps = { stepBytes: Infinity, roomBytes: Infinity };

/** The snapshot would pass `roomBytes` (it needs at least `needed` bytes); nothing of it is kept. */
export class SnapshotLimitError extends Error {
  constructor(
    readonly needed: number,
    readonly limit: number,
  ) {
    super(`the snapshot needs at least ${needed} bytes, over the ${limit} it may take`);
    this.name = 'SnapshotLimitError';
  }
}
