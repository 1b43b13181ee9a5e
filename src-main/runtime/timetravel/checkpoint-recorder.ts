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
import { takeSnapshot } from './workspace-snapshot';

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

export class CheckpointRecorder {
  private lastContainer: string | undefined;
  private hasWarned = false;

  constructor(private readonly input: CheckpointRecorderInput) {}

  readonly atStepBoundary = async (agent: string, step: number): Promise<void> => {
    const { session, sandboxes, settings, store, runId } = this.input;
    if (!settings.use_sandbox || !session.has(SANDBOX_RESOURCE)) return;
    try {
      const sandbox = await sandboxes.acquire(session, settings);
      const isNewContainer = this.lastContainer !== sandbox.id;
      const taken = await takeSnapshot(
        {
          engine: sandboxes.engine,
          containerId: sandbox.id,
          user: sandbox.user,
          workDir: sandbox.workDir,
        },
        store.archivePath(runId, step),
        { isFull: isNewContainer, runId },
      );
      this.lastContainer = sandbox.id;
      store.save(runId, {
        agent,
        step,
        isFull: taken.isFull,
        bytes: taken.bytes,
        manifest: taken.manifest,
        processes: taken.processes,
        takenAt: Date.now(),
        containerId: sandbox.id,
      });
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
