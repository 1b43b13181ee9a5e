import type { StateCreator } from 'zustand';
import type { RunEvent } from '@shared/events';
import type { RunSummary } from '@shared/ipc';
import { applyEventBatch, emptyRunsData, mergeSummaries, type RunsData } from './run-events';
import type { WorkbenchState } from './store';

export interface RunsSlice extends RunsData {
  selectedRunId: string | null;
  applyEvents(batch: RunEvent[]): void;
  setSummaries(summaries: RunSummary[]): void;
  selectRun(runId: string | null): void;
}

export const createRunsSlice: StateCreator<WorkbenchState, [], [], RunsSlice> = (set) => ({
  ...emptyRunsData,
  selectedRunId: null,
  applyEvents: (batch) => set((state) => applyEventBatch(state, batch)),
  setSummaries: (summaries) => set((state) => mergeSummaries(state, summaries)),
  selectRun: (runId) => set({ selectedRunId: runId }),
});
