/**
 * Takes a run's checkpoints: at each step boundary (BaseAgent awaits `atStepBoundary`),
 * a snapshot of the session's sandbox workspace goes into the run's checkpoint folder.
 * The memory and loop state need no copy: they are rebuilt from the history
 * (agent-state.ts). A step before the sandbox exists has nothing to snapshot: the first
 * snapshot after it holds every file. A snapshot that fails is said once and never fails
 * the run; that step then cannot be forked with its files.
 *
 * What the snapshots may take (issue 24 item 3): each is written under a temporary name
 * with a cap on its size worked out before it starts (checkpoint-room.ts); a file that
 * would take the step past `[history] snapshot_step_limit` is left out (the listing and a
 * `checkpoint.limited` event say so); a snapshot that would take the run past its own
 * cap, the budget, or the disk's free space (less a reserve for the histories), or that
 * meets a full disk, is removed and the run's checkpointing stops with a
 * `checkpoint.limited` event: the steps before keep theirs, the disk is not filled.
 */
import type { RunEventPayload } from '@shared/events';
import type { SandboxSettings } from '../config/schema';
import type { CheckpointMeta, CheckpointStore } from '../runs/checkpoint-store';
import { formatBytes } from '../runs/checkpoint-store';
import { SANDBOX_RESOURCE, type SandboxManager } from '../sandbox/sandbox-manager';
import type { Session } from '../session/session';
import { existsSync } from 'node:fs';
import {
  diskReserve,
  diskSpace,
  roomFor,
  type CheckpointLimits,
  type DiskSpace,
  type Room,
} from './checkpoint-room';
import { isHostSnapshotSupported, takeHostSnapshot } from './host-snapshot';
import { SkippedFiles } from './skipped-files';
import { SnapshotLimitError } from './snapshot-caps';
import { listBackgroundProcesses, takeSnapshot, type ManifestEntry } from './workspace-snapshot';

export interface CheckpointRecorderInput {
  store: CheckpointStore;
  runId: string;
  session: Session;
  sandboxes: SandboxManager;
  settings: SandboxSettings;
  /** [history] snapshot_budget, snapshot_run_limit, snapshot_step_limit, in bytes */
  limits: CheckpointLimits;
  /** where notes go (a failed snapshot, an eviction): the CLI's stderr, the app's log */
  warn: (message: string) => void;
  /** the run's event stream (`checkpoint.limited`) */
  emit: (event: RunEventPayload) => void;
  /**
   * how full the history's disk is (default: statfs); a test passes a look that is out of
   * date by the time the snapshot writes, as when another writer fills the disk meanwhile
   */
  diskSpace?: (dir: string) => DiskSpace | undefined;
}

/** `sandbox.changed` statuses of a sandbox that exists and can be snapshotted */
const LIVE = new Set(['ready', 'busy', 'idle']);
/** paths a `files_skipped` event names (the listing has them all) */
const NAMED_PATHS = 20;

interface Taken {
  manifest: ManifestEntry[];
  archived: string[];
  isFull: boolean;
  bytes: number;
  skippedBytes: number;
  processes: string[];
}

export class CheckpointRecorder {
  private lastContainer: string | undefined;
  /** host mode: the ctime mark of the previous snapshot */
  private mark: number | undefined;
  /** the engine runs here and the workspace is its bind mount: snapshots on the host */
  private isHostMode: Promise<boolean> | undefined;
  private hasWarned = false;
  private hasSwept = false;
  /** a limit stopped this run's checkpointing */
  private isStopped = false;
  private readonly skipped = new SkippedFiles();

  constructor(private readonly input: CheckpointRecorderInput) {}

  readonly atStepBoundary = async (agent: string, step: number): Promise<void> => {
    const { session, sandboxes, settings, store, runId, limits } = this.input;
    if (this.isStopped || !settings.use_sandbox || !session.has(SANDBOX_RESOURCE)) return;
    // Only a sandbox that is up: one still being created (a prewarm) or that failed would
    // be waited for, or created again (an image pull), at every step boundary.
    if (!LIVE.has(sandboxes.status(session.id)?.status ?? 'none')) return;
    let partial: string | undefined;
    let room: Room | undefined;
    try {
      if (!this.hasSwept) {
        this.hasSwept = true;
        store.sweep(); // what a crashed process left in any run's folder
      }
      room = roomFor(limits, store.sizeOf(runId), this.disk());
      if (room.bytes <= 0) return this.stop(agent, step, room, 0);
      const sandbox = await sandboxes.acquire(session, settings);
      const target = {
        engine: sandboxes.engine,
        containerId: sandbox.id,
        user: sandbox.user,
        workDir: sandbox.workDir,
      };
      // On the host only where lookups relative to an open folder work (Linux /proc):
      // elsewhere a walk by path could be led out of the workspace by a swapped symlink.
      this.isHostMode ??= sandboxes.engine
        .ping()
        .then(
          (info) =>
            info.isLocal &&
            existsSync(session.workspaceDir) &&
            isHostSnapshotSupported(session.workspaceDir),
        );
      partial = store.partialArchivePath(runId, step);
      const caps = { stepBytes: limits.stepLimit, roomBytes: room.bytes };
      const isHost = await this.isHostMode;
      let taken: Taken;
      let mark: number | undefined;
      if (isHost) {
        const host = await takeHostSnapshot(session.workspaceDir, partial, this.mark, caps);
        mark = host.mark;
        taken = { ...host, processes: [] };
      } else {
        taken = await takeSnapshot(target, partial, {
          isFull: this.lastContainer !== sandbox.id,
          runId,
          caps,
        });
      }
      const {
        manifest,
        fresh,
        keep: keepSkipped,
      } = this.skipped.apply(taken.manifest, taken.archived, taken.isFull);
      const meta: CheckpointMeta = {
        agent,
        step,
        takenAt: Date.now(),
        containerId: sandbox.id,
        isFull: taken.isFull,
        bytes: taken.bytes,
        manifest,
        processes: taken.processes,
      };
      store.commit(runId, meta, partial);
      partial = undefined;
      keepSkipped();
      if (isHost) {
        this.mark = mark;
        // What runs in the container needs an exec (~70 ms): looked at beside the next
        // step instead of holding it up; it sees the processes a moment after the boundary.
        void listBackgroundProcesses(target)
          .then((processes) => {
            if (processes.length > 0) store.save(runId, { ...meta, processes });
          })
          .catch(() => undefined);
      }
      this.lastContainer = sandbox.id;
      if (fresh.length > 0) this.filesSkipped(agent, step, fresh, taken.skippedBytes);
      for (const gone of store.enforceBudget(limits.budget, runId)) {
        this.input.warn(
          `Run ${gone.runId}: its sandbox snapshots (${formatBytes(gone.bytes)}) were evicted to keep ` +
            `[history] snapshot_budget (${formatBytes(limits.budget)}); it can no longer be forked with its files`,
        );
      }
    } catch (error) {
      if (partial !== undefined) store.discard(partial);
      if (error instanceof SnapshotLimitError && room) {
        const isStepCap = error.limit < room.bytes;
        return this.stop(
          agent,
          step,
          isStepCap ? { bytes: error.limit, reason: 'step_limit', limit: error.limit } : room,
          error.needed,
        );
      }
      if (isDiskFull(error)) {
        const free = this.disk()?.free ?? 0;
        return this.stop(
          agent,
          step,
          { bytes: 0, reason: 'disk_full', limit: free },
          0,
          "the disk holding the run history filled up while this step's snapshot was written (ENOSPC)",
        );
      }
      // The container's marker may have moved on with a snapshot not kept: start a new chain.
      this.lastContainer = undefined;
      if (this.hasWarned) return;
      this.hasWarned = true;
      this.input.warn(
        `Run ${runId}: the sandbox snapshot at step ${step} failed (${(error as Error).message}); ` +
          'steps without a snapshot cannot be forked with their files',
      );
    }
  };

  private disk(): DiskSpace | undefined {
    return (this.input.diskSpace ?? diskSpace)(this.input.store.dir);
  }

  private filesSkipped(agent: string, step: number, fresh: ManifestEntry[], bytes: number): void {
    const tooDeep = fresh.every((e) => /nested deeper/.test(e.skipped ?? ''));
    const first = fresh[0]!;
    const more = fresh.length > 1 ? ` and ${fresh.length - 1} more` : '';
    this.input.emit({
      type: 'checkpoint.limited',
      agent,
      step,
      action: 'files_skipped',
      reason: tooDeep ? 'too_deep' : 'step_limit',
      bytes,
      ...(tooDeep ? {} : { limit: this.input.limits.stepLimit }),
      paths: fresh.slice(0, NAMED_PATHS).map((e) => e.path),
      count: fresh.length,
      message:
        `The snapshot of step ${step} leaves out ${first.path}${more} (${first.skipped}); ` +
        'a fork from this step does not have them',
    });
  }

  /** No snapshot at this step and none after it: the limit, said once in the run's events. */
  private stop(
    agent: string,
    step: number,
    room: Room | StepCap,
    needed: number,
    cause?: string,
  ): void {
    this.isStopped = true;
    const { store, runId, limits } = this.input;
    const taken = formatBytes(store.sizeOf(runId));
    const why =
      cause ??
      (() => {
        switch (room.reason) {
          case 'run_limit':
            return `this run's snapshots (${taken}) would pass [history] snapshot_run_limit (${formatBytes(room.limit)})`;
          case 'budget':
            return `this run's snapshots (${taken}) would pass [history] snapshot_budget (${formatBytes(room.limit)}) on their own`;
          case 'step_limit':
            return `the step's snapshot would pass [history] snapshot_step_limit (${formatBytes(limits.stepLimit)})`;
          case 'disk_full': {
            const total = this.disk()?.total ?? 0;
            return `the disk holding the run history is full (${formatBytes(room.limit)} free, ${formatBytes(diskReserve(total))} kept for the histories)`;
          }
        }
      })();
    this.input.emit({
      type: 'checkpoint.limited',
      agent,
      step,
      action: 'stopped',
      reason: room.reason,
      bytes: needed,
      limit: room.limit,
      message:
        `Checkpointing stopped at step ${step}: ${why}. ` +
        'The steps before it can still be forked with their files; later ones cannot.',
    });
  }
}

interface StepCap {
  bytes: number;
  reason: 'step_limit';
  limit: number;
}

function isDiskFull(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}
