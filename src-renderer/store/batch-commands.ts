/**
 * Commands of the Batch view (docs/batch.md): start, stop and resume a batch, read its
 * grid and the list of batches, and hear `batch:progress` pushes. The grid is read from
 * the main process (it is computed from the runs' histories there), not kept in the store.
 */
import type {
  AppApi,
  BatchGrid,
  BatchListEntry,
  BatchProgress,
  BatchStartInput,
} from '@shared/ipc';

export interface BatchCommands {
  start(input: BatchStartInput): Promise<string>;
  stop(batchId: string): Promise<boolean>;
  resume(batchId: string): Promise<void>;
  grid(batchId: string): Promise<BatchGrid>;
  list(): Promise<BatchListEntry[]>;
  /** every batch's progress pushes; returns the unsubscribe */
  onProgress(listener: (progress: BatchProgress) => void): () => void;
}

export function createBatchCommands(api: AppApi): BatchCommands {
  return {
    start: async (input) => (await api.startBatch(input)).batchId,
    stop: async (batchId) => (await api.stopBatch({ batchId })).stopped,
    resume: async (batchId) => void (await api.resumeBatch({ batchId })),
    grid: (batchId) => api.getBatch({ batchId }),
    list: () => api.listBatches({}),
    onProgress: (listener) => api.onBatchProgress(listener),
  };
}
