import type { StateCreator } from 'zustand';
import type { RunEvent } from '@shared/events';
import type { RunSummary } from '@shared/ipc';
import {
  applyEventBatch,
  emptyRunsData,
  mergeSummaries,
  removeRuns,
  setRunLoad,
  type RunData,
  type RunsData,
} from './run-events';
import type { WorkbenchState } from './store';

export interface RunsSlice extends RunsData {
  selectedRunId: string | null;
  applyEvents(batch: readonly RunEvent[]): void;
  setSummaries(summaries: readonly RunSummary[]): void;
  setRunLoad(runId: string, load: RunData['load']): void;
  /** shows a run: resets the timeline's selection, collapsed steps and follow-tail */
  selectRun(runId: string | null): void;
  /** forgets runs removed from the history; the run shown goes back to "New run" */
  removeRuns(runIds: readonly string[]): void;
}

export const createRunsSlice: StateCreator<WorkbenchState, [], [], RunsSlice> = (set) => ({
  ...emptyRunsData,
  selectedRunId: null,
  applyEvents: (batch) => set((state) => applyEventBatch(state, batch)),
  setSummaries: (summaries) => set((state) => mergeSummaries(state, summaries)),
  setRunLoad: (runId, load) => set((state) => setRunLoad(state, runId, load)),
  removeRuns: (runIds) =>
    set((state) => {
      const data = removeRuns(state, runIds);
      if (!state.selectedRunId || !runIds.includes(state.selectedRunId)) return data;
      return { ...data, selectedRunId: null, view: 'new' as const, selectedItemId: null };
    }),
  selectRun: (runId) =>
    set({
      selectedRunId: runId,
      view: 'run',
      selectedItemId: null,
      expandedItems: new Set(),
      collapsedSteps: new Set(),
      isFollowingTail: true,
      jump: null,
    }),
});
