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
 *
 * Off the step's path (issue 27): with a host snapshot, the boundary returns at once; the
 * capture (the walk, the listing, the changed files' bytes) runs beside the next step's
 * model call while the sandbox holds that step's tool calls, then the archive is written
 * from the capture and committed while the step runs, so it holds exactly the boundary's
 * files whatever that step writes. `settled()` waits for it (the run's session
 * is released only after). A crash before the commit leaves only partials the sweep removes.
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
import { captureHostSnapshot, isHostSnapshotSupported, type HostCapture } from './host-snapshot';
import { SkippedFiles } from './skipped-files';
import { SnapshotLimitError } from './snapshot-caps';
import {
  listBackgroundProcesses,
  takeSnapshot,
  type ManifestEntry,
  type SnapshotTarget,
} from './workspace-snapshot';

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
  /**
   * awaited before a host snapshot's archive is written from its staged copies: a test
   * holds it to make the next step write while that archive is still to be written
   */
  beforeArchive?: (step: number) => Promise<void>;
}

/** `sandbox.changed` statuses of a sandbox that exists and can be snapshotted */
const LIVE = new Set(['ready', 'busy', 'idle']);
/** paths a `files_skipped` event names (the listing has them all) */
const NAMED_PATHS = 20;

/** A step's record ready to be kept, with what the skipped-files bookkeeping does then. */
interface Kept {
  meta: CheckpointMeta;
  fresh: ManifestEntry[];
  keepSkipped: () => void;
  skippedBytes: number;
}

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
  /** host mode: the paths the previous snapshot listed (a path new since is taken whole) */
  private listed: ReadonlySet<string> | undefined;
  /** the engine runs here and the workspace is its bind mount: snapshots on the host */
  private isHostMode: Promise<boolean> | undefined;
  private hasWarned = false;
  private hasSwept = false;
  /** a limit stopped this run's checkpointing */
  private isStopped = false;
  private readonly skipped = new SkippedFiles();
  /** the previous boundary's archive, written beside the current step */
  private pending: Promise<void> = Promise.resolve();

  constructor(private readonly input: CheckpointRecorderInput) {}

  /**
   * The step boundary: on the host, nothing holds the run up but the room's arithmetic.
   * The capture (the walk, the listing, the changed files' bytes) runs beside the next
   * step's model call, the sandbox holding that step's tool calls until it is done; the
   * archive is then written and committed beside the step (`settled` waits for all of it).
   * The next boundary waits for the previous snapshot first: the chain (its ctime mark,
   * the skipped files, the room left) continues from a snapshot known to be kept.
   */
  readonly atStepBoundary = async (agent: string, step: number): Promise<void> => {
    await this.pending;
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
      const isHost = await this.isHostMode;
      // a host snapshot's staged copies and its archive are on the disk together for a while
      room = roomFor(limits, store.sizeOf(runId), this.disk(), isHost ? 2 : 1);
      if (room.bytes <= 0) return this.stop(agent, step, room, 0);
      partial = store.partialArchivePath(runId, step);
      const caps = { stepBytes: limits.stepLimit, roomBytes: room.bytes };
      if (isHost) {
        // The capture runs beside the next step's model call; the sandbox holds that step's
        // tool calls (its only writers besides processes left running) until it is done.
        const capturing = captureHostSnapshot(
          session.workspaceDir,
          store.stagingPath(runId, step),
          this.mark,
          caps,
          this.listed,
        );
        sandbox.holdCallsUntil(capturing);
        const archive = partial;
        partial = undefined;
        const atRoom = room;
        this.pending = capturing
          .then(
            (capture) => {
              const kept = this.prepare(agent, step, sandbox.id, { ...capture, processes: [] });
              return this.archiveInBackground(capture, archive, kept, target, atRoom);
            },
            (error: unknown) => {
              store.discard(archive);
              this.failed(agent, step, error, atRoom);
            },
          )
          .catch((error: unknown) => this.input.warn(`Run ${runId}: ${(error as Error).message}`));
        return;
      }
      const taken = await takeSnapshot(target, partial, {
        isFull: this.lastContainer !== sandbox.id,
        runId,
        caps,
      });
      this.keep(this.prepare(agent, step, sandbox.id, taken), partial);
      partial = undefined;
    } catch (error) {
      if (partial !== undefined) store.discard(partial);
      this.failed(agent, step, error, room);
    }
  };

  /** Resolves once the last step boundary's snapshot is kept (or given up): before the run ends. */
  settled(): Promise<void> {
    return this.pending;
  }

  /** The archive written from the staged copies, then kept: beside the next step. */
  private async archiveInBackground(
    capture: HostCapture,
    archive: string,
    kept: Kept,
    target: SnapshotTarget,
    room: Room,
  ): Promise<void> {
    const { store, runId } = this.input;
    try {
      await this.input.beforeArchive?.(kept.meta.step);
      await capture.write(archive);
      this.keep(kept, archive);
      this.mark = capture.mark;
      this.listed = new Set(kept.meta.manifest.map((e) => e.path));
      // What runs in the container needs an exec (~70 ms): looked at beside the next
      // step; it sees the processes a moment after the boundary.
      void listBackgroundProcesses(target)
        .then((processes) => {
          if (processes.length > 0) store.save(runId, { ...kept.meta, processes });
        })
        .catch(() => undefined);
    } catch (error) {
      capture.discard();
      store.discard(archive);
      this.failed(kept.meta.agent, kept.meta.step, error, room);
    }
  }

  /** The step's record, the listing with the files left out marked. */
  private prepare(agent: string, step: number, containerId: string, taken: Taken): Kept {
    const { manifest, fresh, keep } = this.skipped.apply(
      taken.manifest,
      taken.archived,
      taken.isFull,
    );
    const meta: CheckpointMeta = {
      agent,
      step,
      takenAt: Date.now(),
      containerId,
      isFull: taken.isFull,
      bytes: taken.bytes,
      manifest,
      processes: taken.processes,
    };
    return { meta, fresh, keepSkipped: keep, skippedBytes: taken.skippedBytes };
  }

  /** Makes the written archive the step's checkpoint; then the budget is enforced. */
  private keep(kept: Kept, archive: string): void {
    const { store, runId, limits } = this.input;
    store.commit(runId, kept.meta, archive);
    kept.keepSkipped();
    this.lastContainer = kept.meta.containerId;
    const { agent, step } = kept.meta;
    if (kept.fresh.length > 0) this.filesSkipped(agent, step, kept.fresh, kept.skippedBytes);
    for (const gone of store.enforceBudget(limits.budget, runId)) {
      this.input.warn(
        `Run ${gone.runId}: its sandbox snapshots (${formatBytes(gone.bytes)}) were evicted to keep ` +
          `[history] snapshot_budget (${formatBytes(limits.budget)}); it can no longer be forked with its files`,
      );
    }
  }

  /** A snapshot not kept: a limit stops the run's checkpointing, anything else is said once. */
  private failed(agent: string, step: number, error: unknown, room: Room | undefined): void {
    const { runId } = this.input;
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
