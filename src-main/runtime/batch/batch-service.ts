/**
 * The runtime's batches: starts, resumes and stops them, and answers for every batch on
 * disk (its grid from the runs' summaries). One runner per batch this process runs.
 */
import type { BatchGrid, BatchListEntry, BatchProgress } from '@shared/domain/batch';
import { batchGrid, batchProgress } from '@shared/batch-grid';
import type { RunManager } from '../runs/run-manager';
import { createBatchPlan, type BatchPlanInput } from './batch-plan';
import { BatchRunner, type BatchProgressListener } from './batch-runner';
import { BatchStore } from './batch-store';
import type { BatchWarmPool } from './batch-warm-pool';

export class BatchConflictError extends Error {}

export class BatchService {
  private readonly runners = new Map<string, BatchRunner>();
  private readonly listeners = new Set<BatchProgressListener>();
  private readonly store: BatchStore;

  constructor(
    private readonly deps: {
      dir: string;
      runs: RunManager;
      closeSession(sessionId: string): Promise<void>;
      /** a warm sandbox pool per batch (sandbox/warm-pool.ts) */
      warmPool?(batchId: string): BatchWarmPool;
    },
  ) {
    this.store = new BatchStore(deps.dir);
  }

  /** Progress of every batch this process runs, at each change. */
  onProgress(listener: BatchProgressListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Plans a batch, saves it and starts it; `done` resolves when it ends or stops. */
  start(input: BatchPlanInput): { batchId: string; done: Promise<BatchProgress> } {
    const plan = createBatchPlan(input);
    const state = this.store.create(plan);
    return this.launch(new BatchRunner(this.runnerDeps(), plan, state));
  }

  /** Goes on with a batch from disk: only items without a finished run are run. */
  resume(batchId: string): { batchId: string; done: Promise<BatchProgress> } {
    const existing = this.runners.get(batchId);
    if (existing?.isRunning) throw new BatchConflictError(`The batch ${batchId} is running`);
    const { plan, state } = this.store.load(batchId);
    return this.launch(new BatchRunner(this.runnerDeps(), plan, state));
  }

  stop(batchId: string): boolean {
    const runner = this.runners.get(batchId);
    if (!runner?.isRunning) return false;
    runner.stop();
    return true;
  }

  grid(batchId: string, ownProfileName?: string): BatchGrid {
    const runner = this.runners.get(batchId);
    if (runner) return runner.grid(ownProfileName);
    const { plan, state } = this.store.load(batchId);
    return batchGrid(plan, state, (id) => this.deps.runs.get(id), ownProfileName);
  }

  list(): BatchListEntry[] {
    return this.store.ids().flatMap((batchId) => {
      try {
        const runner = this.runners.get(batchId);
        const { plan, state } = this.store.load(batchId);
        const progress = runner
          ? runner.progress()
          : batchProgress(plan, state, (id) => this.deps.runs.get(id));
        return [{ batchId, agent: plan.agent, createdAt: plan.createdAt, progress }];
      } catch {
        return [];
      }
    });
  }

  /** Stops every batch (app quit); their runs are stopped by the run manager. */
  async dispose(): Promise<void> {
    const running = [...this.runners.values()].filter((r) => r.isRunning);
    for (const runner of running) runner.stop();
    await Promise.allSettled(running.map((r) => r.run()));
  }

  private launch(runner: BatchRunner): { batchId: string; done: Promise<BatchProgress> } {
    this.runners.set(runner.batchId, runner);
    runner.onProgress((progress) => {
      for (const listener of this.listeners) listener(progress);
    });
    return { batchId: runner.batchId, done: runner.run() };
  }

  private runnerDeps() {
    const { warmPool } = this.deps;
    return {
      runs: this.deps.runs,
      store: this.store,
      closeSession: this.deps.closeSession,
      ...(warmPool ? { warmPool: (batchId: string) => warmPool(batchId) } : {}),
    };
  }
}
