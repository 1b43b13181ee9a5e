/**
 * Runs one batch: at most `concurrency` runs at once, each an ordinary run of the run
 * manager in a session of its own (its own container), tagged with the batch cell it
 * fills. The state is saved when a run starts and when it ends, so a batch killed at
 * any moment resumes with exactly the items that had not ended: a run that ended (in
 * its history: `run.finished`, not stopped) is never repeated.
 */
import { randomUUID } from 'node:crypto';
import type {
  BatchGrid,
  BatchItem,
  BatchPlan,
  BatchProgress,
  BatchState,
} from '@shared/domain/batch';
import { batchGrid, batchProgress } from '@shared/batch-grid';
import type { RunManager } from '../runs/run-manager';
import type { BatchStore } from './batch-store';
import type { BatchWarmPool } from './batch-warm-pool';

export interface BatchRunnerDeps {
  runs: RunManager;
  store: BatchStore;
  /** releases a finished run's session (its container), so the next run gets the slot */
  closeSession(sessionId: string): Promise<void>;
  /** sandboxes started ahead for the batch's runs (sandbox/warm-pool.ts); none: each run starts its own */
  warmPool?(batchId: string): BatchWarmPool;
}

export type BatchProgressListener = (progress: BatchProgress) => void;

export class BatchRunner {
  private readonly listeners = new Set<BatchProgressListener>();
  /** item key -> the run filling it now */
  private readonly live = new Map<string, string>();
  /** run id -> the session it works in, for the runs live now */
  private readonly liveSessions = new Map<string, string>();
  private pool: BatchWarmPool | undefined;
  /** items not started yet */
  private queue: BatchItem[] = [];
  private isStopping = false;
  private running: Promise<BatchProgress> | null = null;

  constructor(
    private readonly deps: BatchRunnerDeps,
    readonly plan: BatchPlan,
    private state: BatchState,
  ) {}

  get batchId(): string {
    return this.plan.batchId;
  }

  onProgress(listener: BatchProgressListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  progress(): BatchProgress {
    return batchProgress(this.plan, this.state, (id) => this.deps.runs.get(id));
  }

  grid(ownProfileName?: string): BatchGrid {
    return batchGrid(this.plan, this.state, (id) => this.deps.runs.get(id), ownProfileName);
  }

  /** Runs what is left of the batch; resolves with the progress when it ends or stops. */
  run(): Promise<BatchProgress> {
    this.running ??= this.runLeft();
    return this.running;
  }

  /** Stops the batch: live runs are stopped, queued items stay for a resume. */
  stop(): void {
    if (this.isStopping) return;
    this.isStopping = true;
    for (const runId of this.live.values()) this.deps.runs.stop(runId);
    this.publish();
  }

  get isRunning(): boolean {
    return this.running !== null && !this.isDone;
  }

  private isDone = false;

  private async runLeft(): Promise<BatchProgress> {
    this.reconcile();
    this.update({ isStopped: false });
    const queue = this.plan.items.filter((item) => this.state.items[item.key]?.status !== 'done');
    this.queue = queue;
    const workers = Math.min(Math.max(1, this.plan.concurrency), queue.length);
    this.pool = this.deps.warmPool?.(this.batchId);
    // The pool starts once a run of the batch used its sandbox (`sandbox.changed`).
    const unsubscribe = this.pool
      ? this.deps.runs.onEvent((event) => {
          if (!this.liveSessions.has(event.runId)) return;
          // a task's copy runs in a session of its own (`copy-<runId>`) unless it took a spare
          if (event.type === 'run.started') this.liveSessions.set(event.runId, event.sessionId);
          if (event.type !== 'sandbox.changed') return;
          // (not at each command's busy / idle)
          if (event.status !== 'creating' && event.status !== 'ready') return;
          this.pool?.demand();
          this.fillPool();
        })
      : undefined;
    try {
      await Promise.all(
        Array.from({ length: workers }, async () => {
          for (let item = queue.shift(); item && !this.isStopping; item = queue.shift()) {
            await this.runItem(item);
          }
        }),
      );
    } finally {
      unsubscribe?.();
      // ended or stopped: the spares no run took are removed (containers and folders)
      await this.pool?.close().catch((error: unknown) => {
        console.error(`[workbench] batch ${this.batchId}: ${(error as Error).message}`);
      });
    }
    const isComplete = this.plan.items.every((i) => this.state.items[i.key]?.status === 'done');
    this.update({ isComplete, isStopped: !isComplete && this.isStopping });
    this.isDone = true;
    return this.progress();
  }

  /**
   * After a kill the state may say `running` for runs that ended before the state was
   * saved (their history has `run.finished`: done) or that died with the app (again).
   */
  private reconcile(): void {
    const items = { ...this.state.items };
    for (const [key, entry] of Object.entries(items)) {
      if (entry.status !== 'running') continue;
      const summary = entry.runId ? this.deps.runs.get(entry.runId) : undefined;
      const hasEnded =
        summary?.outcome !== undefined && !summary.isInterrupted && summary.outcome !== 'cancelled';
      items[key] = { ...entry, status: hasEnded ? 'done' : 'queued' };
    }
    this.state = { ...this.state, items };
  }

  private async runItem(item: BatchItem): Promise<void> {
    const task = this.plan.tasks[item.taskIndex];
    const profile = this.plan.profiles[item.profileIndex];
    if (!task || profile === undefined) return;
    // A fresh session per attempt: a re-run never inherits an interrupted run's files. With
    // a warm pool, the session of a sandbox started ahead (its folder is still empty).
    const spare = this.isStopping ? undefined : this.pool?.take();
    const sessionId =
      spare?.sessionId ?? `${this.plan.batchId}-${item.key}-${randomUUID().slice(0, 4)}`;
    const column = this.plan.agents?.[item.profileIndex];
    const agentRef = task.agentRef ?? (task.agent === undefined ? column?.agentRef : undefined);
    const handle = this.deps.runs.start(
      {
        task: task.task,
        // a task's own agent (`batch --agent a@3`), else its experiment column's, else the plan's
        agent: task.agent ?? column?.agent ?? this.plan.agent,
        ...(agentRef !== undefined ? { agentRef } : {}),
        sessionId,
        ...(this.plan.maxSteps !== undefined ? { maxSteps: this.plan.maxSteps } : {}),
        ...(task.workspace ? { workspace: { path: task.workspace, mode: 'copy' as const } } : {}),
      },
      {
        // the task's files go into the spare's folder, the one its sandbox binds
        ...(spare && task.workspace ? { copyIntoSession: true } : {}),
        // A batch runs unattended: saved breakpoints would pause it with nobody to resume.
        ignoreSavedBreakpoints: true,
        ...(profile !== null ? { profile } : {}),
        ...(task.check !== undefined ? { check: task.check } : {}),
        ...(task.scoring ? { scoring: task.scoring } : {}),
        batch: {
          batchId: this.plan.batchId,
          item: item.key,
          taskIndex: item.taskIndex,
          ...(profile !== null ? { profile } : {}),
          repeat: item.repeat,
        },
      },
    );
    this.live.set(item.key, handle.runId);
    this.liveSessions.set(handle.runId, sessionId);
    this.setItem(item.key, { status: 'running', runId: handle.runId });
    this.fillPool();
    let outcome: string;
    try {
      outcome = (await handle.done).outcome;
    } finally {
      this.live.delete(item.key);
      this.liveSessions.delete(handle.runId);
      spare?.release();
    }
    await this.deps.closeSession(sessionId).catch((error: unknown) => {
      console.error(`[workbench] batch ${this.batchId}: ${(error as Error).message}`);
    });
    // A stopped run did not finish: a resume runs the item again.
    this.setItem(item.key, {
      status: outcome === 'cancelled' ? 'queued' : 'done',
      runId: handle.runId,
    });
  }

  /** Spares for the next runs: one per worker at most, never more than the runs left. */
  private fillPool(): void {
    if (!this.pool || this.isStopping) return;
    const target = Math.min(Math.max(1, this.plan.concurrency), this.queue.length);
    this.pool.fill(target, [...this.liveSessions.values()]);
  }

  private setItem(key: string, entry: BatchState['items'][string]): void {
    this.update({ items: { ...this.state.items, [key]: entry } });
  }

  private update(change: Partial<BatchState>): void {
    this.state = { ...this.state, ...change };
    this.deps.store.saveState(this.state);
    this.publish();
  }

  private publish(): void {
    if (this.listeners.size === 0) return;
    const progress = this.progress();
    for (const listener of this.listeners) {
      try {
        listener(progress);
      } catch (error) {
        console.error(`[workbench] batch progress listener failed: ${(error as Error).message}`);
      }
    }
  }
}
