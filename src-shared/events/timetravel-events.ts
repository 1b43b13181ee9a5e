/**
 * Time travel: a step's workspace snapshot hit a limit (docs/time-travel.md).
 * Part of the RunEvent contract (../events.ts, docs/events.md).
 */

/** Which limit a run's sandbox snapshots hit (docs/time-travel.md, "What snapshots may take"). */
export const CHECKPOINT_LIMIT_REASONS = [
  'step_limit',
  'run_limit',
  'budget',
  'disk_full',
  'too_deep',
] as const;
export type CheckpointLimitReason = (typeof CHECKPOINT_LIMIT_REASONS)[number];

/**
 * The run's sandbox snapshot at a step boundary hit a limit. `files_skipped`: the step's
 * snapshot was taken without some files (a fork from it, or from a later step before they
 * are taken again, does not have them). `stopped`: this step has no snapshot and the run
 * takes no more; the steps before it keep theirs.
 */
export interface CheckpointLimitedEvent {
  type: 'checkpoint.limited';
  agent: string;
  step: number;
  action: 'files_skipped' | 'stopped';
  reason: CheckpointLimitReason;
  /** `files_skipped`: the left-out files' size; `stopped`: what the snapshot needed at least */
  bytes: number;
  /** the limit that applied, in bytes (`disk_full`: what the disk had free) */
  limit?: number;
  /** `files_skipped`: the paths left out (the first 20) and how many in all */
  paths?: string[];
  count?: number;
  /** the same in one sentence */
  message: string;
}
