/**
 * Which model call the playground page shows (docs/playground.md): a run and the seq of
 * its `llm.requested`, as the address `#/playground/RUN/SEQ` names it. What is edited
 * there lives in the page itself: nothing of it belongs to the run.
 */
import type { StateCreator } from 'zustand';
import type { WorkbenchState } from './store';

export interface PlaygroundTarget {
  runId: string;
  seq: number;
}

export interface PlaygroundSlice {
  playground: PlaygroundTarget | null;
  /** shows the playground page with this run's model call */
  openPlayground(runId: string, seq: number): void;
}

export const createPlaygroundSlice: StateCreator<WorkbenchState, [], [], PlaygroundSlice> = (
  set,
) => ({
  playground: null,
  openPlayground: (runId, seq) => set({ view: 'playground', playground: { runId, seq } }),
});
