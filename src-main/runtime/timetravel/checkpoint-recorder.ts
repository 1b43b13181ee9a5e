/**
 * Takes a run's checkpoints: at each step boundary (BaseAgent awaits `atStepBoundary`),
 * a snapshot of the session's sandbox workspace goes into the run's checkpoint folder.
 * The memory and loop state need no copy: they are rebuilt from the history
 * (agent-state.ts). A step before the sandbox exists has nothing to snapshot: the first
 * snapshot after it holds every file. A snapshot that fails is said once and never fails
 * the run; that step then cannot be forked with its files.
 */
import type { SandboxSettings } from '../config/schema';
import type { CheckpointStore } from '../runs/checkpoint-store';
import { formatBytes } from '../runs/checkpoint-store';
import { SANDBOX_RESOURCE, type SandboxManager } from '../sandbox/sandbox-manager';
import type { Session } from '../session/session';
import { existsSync } from 'node:fs';
import { isHostSnapshotSupported, takeHostSnapshot } from './host-snapshot';
import { listBackgroundProcesses, takeSnapshot } from './workspace-snapshot';

export interface CheckpointRecorderInput {
  store: CheckpointStore;
  runId: string;
  session: Session;
  sandboxes: SandboxManager;
  settings: SandboxSettings;
  /** bytes all runs' snapshots may take ([history] snapshot_budget) */
  budget: number;
  /** where notes go (a failed snapshot, an eviction): the CLI's stderr, the app's log */
  warn: (message: string) => void;
}

/** `sandbox.changed` statuses of a sandbox that exists and can be snapshotted */
const LIVE = new Set(['ready', 'busy', 'idle']);

export class CheckpointRecorder {
  private lastContainer: string | undefined;
  /** host mode: the ctime mark of the previous snapshot */
  private mark: number | undefined;
  /** the engine runs here and the workspace is its bind mount: snapshots on the host */
  private isHostMode: Promise<boolean> | undefined;
  private hasWarned = false;

  constructor(private readonly input: CheckpointRecorderInput) {}

  readonly atStepBoundary = async (agent: string, step: number): Promise<void> => {
    const { session, sandboxes, settings, store, runId } = this.input;
    if (!settings.use_sandbox || !session.has(SANDBOX_RESOURCE)) return;
    // Only a sandbox that is up: one still being created (a prewarm) or that failed would
    // be waited for, or created again (an image pull), at every step boundary.
    if (!LIVE.has(sandboxes.status(session.id)?.status ?? 'none')) return;
    try {
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
      const archive = store.archivePath(runId, step);
      const meta = {
        agent,
        step,
        takenAt: Date.now(),
        containerId: sandbox.id,
      };
      if (await this.isHostMode) {
        const taken = await takeHostSnapshot(session.workspaceDir, archive, this.mark);
        this.mark = taken.mark;
        const saved = {
          ...meta,
          isFull: taken.isFull,
          bytes: taken.bytes,
          manifest: taken.manifest,
        };
        store.save(runId, { ...saved, processes: [] });
        // What runs in the container needs an exec (~70 ms): looked at beside the next
        // step instead of holding it up; it sees the processes a moment after the boundary.
        void listBackgroundProcesses(target)
          .then((processes) => {
            if (processes.length > 0) store.save(runId, { ...saved, processes });
          })
          .catch(() => undefined);
      } else {
        const taken = await takeSnapshot(target, archive, {
          isFull: this.lastContainer !== sandbox.id,
          runId,
        });
        store.save(runId, {
          ...meta,
          isFull: taken.isFull,
          bytes: taken.bytes,
          manifest: taken.manifest,
          processes: taken.processes,
        });
      }
      this.lastContainer = sandbox.id;
      for (const gone of store.enforceBudget(this.input.budget, runId)) {
        this.input.warn(
          `Run ${gone.runId}: its sandbox snapshots (${formatBytes(gone.bytes)}) were evicted to keep ` +
            `[history] snapshot_budget (${formatBytes(this.input.budget)}); it can no longer be forked with its files`,
        );
      }
    } catch (error) {
      if (this.hasWarned) return;
      this.hasWarned = true;
      this.input.warn(
        `Run ${runId}: the sandbox snapshot at step ${step} failed (${(error as Error).message}); ` +
          'steps without a snapshot cannot be forked with their files',
      );
    }
  };
}
