/**
 * What a batch runner needs of a warm sandbox pool (sandbox/warm-pool.ts; the runtime
 * gives one per batch): spares started ahead, one taken by each run that starts.
 */

/** A spare handed to a run: its session, and the run's hold on it until the run ends. */
export interface TakenSpare {
  sessionId: string;
  /** ends the run's lease (the sandbox is then idle, as any finished run's) */
  release(): void;
}

export interface BatchWarmPool {
  /** a run of the batch used its sandbox: the next runs will want one too */
  demand(): void;
  /** starts spares up to `target`, leaving a slot for each live session without a sandbox */
  fill(target: number, liveSessions: readonly string[]): void;
  /** a started spare for the next run, if one is ready */
  take(): TakenSpare | undefined;
  /** removes every spare not taken (containers and folders) */
  close(): Promise<void>;
}
