/**
 * Which part of the Experiments page is shown (issue 31): the list with the form, one
 * experiment's report, a dataset's editor, or a dataset's regression chart. The data
 * itself is read from the main process when shown (reports are computed there).
 */
import type { StateCreator } from 'zustand';
import type { WorkbenchState } from './store';

export type ExperimentsPage =
  | { kind: 'list' }
  | { kind: 'report'; experimentId: string }
  | { kind: 'dataset'; name: string }
  | { kind: 'trend'; datasetPath: string };

export interface ExperimentsSlice {
  experimentsPage: ExperimentsPage;
  showExperiments(page: ExperimentsPage): void;
}

export const createExperimentsSlice: StateCreator<WorkbenchState, [], [], ExperimentsSlice> = (
  set,
) => ({
  experimentsPage: { kind: 'list' },
  showExperiments: (experimentsPage) => set({ view: 'experiments', experimentsPage }),
});
