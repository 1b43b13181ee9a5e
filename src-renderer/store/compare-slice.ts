/**
 * Choosing runs to compare and what the compare page shows: the history's selection
 * mode (rows get a checkbox), the chosen runs in the order they were picked, and the
 * runs on the compare page (two: the step-aligned diff; more: the summary table).
 */
import type { StateCreator } from 'zustand';
import type { WorkbenchState } from './store';

/** the most runs one comparison takes (the contract's `runs:compare` limit) */
export const MAX_COMPARED = 12;

export interface CompareSlice {
  isSelectingForCompare: boolean;
  /** run ids picked in the history, first picked first (the first is the baseline) */
  compareSelection: string[];
  /** the runs on the compare page */
  compareRunIds: string[];
  /** the table a pairwise diff was opened from, to go back to */
  compareReturnTo: string[] | null;
  setSelectingForCompare(isSelecting: boolean): void;
  toggleCompareSelection(runId: string): void;
  /**
   * shows the compare page for these runs (and leaves the history's selection mode);
   * `returnTo`: the table this pair was picked from
   */
  openCompare(runIds: string[], returnTo?: string[]): void;
}

export const createCompareSlice: StateCreator<WorkbenchState, [], [], CompareSlice> = (set) => ({
  isSelectingForCompare: false,
  compareSelection: [],
  compareRunIds: [],
  compareReturnTo: null,
  setSelectingForCompare: (isSelectingForCompare) =>
    set(
      isSelectingForCompare
        ? { isSelectingForCompare }
        : { isSelectingForCompare, compareSelection: [] },
    ),
  toggleCompareSelection: (runId) =>
    set((s) => {
      if (s.compareSelection.includes(runId)) {
        return { compareSelection: s.compareSelection.filter((id) => id !== runId) };
      }
      if (s.compareSelection.length >= MAX_COMPARED) return {};
      return { compareSelection: [...s.compareSelection, runId] };
    }),
  openCompare: (runIds, returnTo) =>
    set({
      compareRunIds: runIds.slice(0, MAX_COMPARED),
      compareReturnTo: returnTo ?? null,
      view: 'compare',
      isSelectingForCompare: false,
      compareSelection: [],
    }),
});
