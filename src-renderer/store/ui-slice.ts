/**
 * What the user is looking at: the page, the timeline's filters, selection, expanded
 * rows, collapsed steps, follow-tail, the history filters and pending jumps.
 */
import type { StateCreator } from 'zustand';
import type { ConfigTarget } from '@shared/ipc';
import { positionOfId } from './timeline/model';
import {
  hasActiveFilters,
  itemMatches,
  NO_FILTERS,
  type TimelineFilters,
} from './timeline/visible-rows';
import { ALL_HISTORY, type HistoryFilters } from './history';
import type { WorkbenchState } from './store';

export type View = 'run' | 'new' | 'config' | 'compare' | 'batch' | 'playground' | 'agents';

/** Settings pages beside the per-agent model pages: the sections every run uses. */
export const SETTINGS_SECTIONS = ['sandbox', 'browser', 'telemetry', 'mcp'] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];
/** Settings pages that are not an agent's: the list of model profiles, and the sections. */
export type SettingsPage = 'profiles' | SettingsSection;

export interface UiSlice {
  view: View;
  filters: TimelineFilters;
  collapsedSteps: ReadonlySet<number>;
  selectedItemId: number | null;
  expandedItems: ReadonlySet<number>;
  /** keep the newest row in view while a run streams; off once the user scrolls up */
  isFollowingTail: boolean;
  historyFilters: HistoryFilters;
  configTarget: ConfigTarget;
  /** a section page of Settings ([sandbox], [browser], [mcp]); null shows `configTarget` */
  settingsSection: SettingsPage | null;
  /** a request to scroll an item into view; the nonce makes repeated jumps fire */
  jump: { itemId: number; nonce: number } | null;
  /** the batch the Batch view shows; null: its form and the list of batches */
  batchId: string | null;
  /** the search box: matches are highlighted and stepped through */
  search: string;
  /** the search also hides the rows without a match (it is then `filters.text`) */
  isSearchFiltering: boolean;
  setSearch(text: string): void;
  /** how tool output shows in the cards: wrapped or not, with line numbers or not */
  output: { isWrapped: boolean; hasLineNumbers: boolean };
  setOutput(patch: Partial<UiSlice['output']>): void;
  setSearchFiltering(isFiltering: boolean): void;
  showView(view: View): void;
  showBatch(batchId: string | null): void;
  showConfig(target: ConfigTarget): void;
  showSettingsSection(section: SettingsPage): void;
  setFilters(patch: Partial<TimelineFilters>): void;
  clearFilters(): void;
  toggleStep(stepId: number): void;
  selectItem(itemId: number | null): void;
  toggleExpanded(itemId: number): void;
  setFollowingTail(isFollowing: boolean): void;
  setHistoryFilters(patch: Partial<HistoryFilters>): void;
  /** selects an item and scrolls to it, clearing filters or expanding its step if they hide it */
  jumpTo(itemId: number): void;
}

export const createUiSlice: StateCreator<WorkbenchState, [], [], UiSlice> = (set, get) => ({
  view: 'new',
  filters: NO_FILTERS,
  collapsedSteps: new Set(),
  selectedItemId: null,
  expandedItems: new Set(),
  isFollowingTail: true,
  historyFilters: ALL_HISTORY,
  configTarget: 'manus',
  settingsSection: null,
  jump: null,
  batchId: null,
  search: '',
  isSearchFiltering: false,
  output: { isWrapped: true, hasLineNumbers: false },
  setOutput: (patch) => set((s) => ({ output: { ...s.output, ...patch } })),
  setSearch: (search) =>
    set((s) =>
      s.isSearchFiltering ? { search, filters: { ...s.filters, text: search } } : { search },
    ),
  setSearchFiltering: (isSearchFiltering) =>
    set((s) => ({
      isSearchFiltering,
      filters: { ...s.filters, text: isSearchFiltering ? s.search : '' },
    })),
  showView: (view) => set({ view }),
  showBatch: (batchId) => set({ view: 'batch', batchId }),
  showConfig: (configTarget) => set({ view: 'config', configTarget, settingsSection: null }),
  showSettingsSection: (settingsSection) => set({ view: 'config', settingsSection }),
  setFilters: (patch) => set((s) => ({ filters: { ...s.filters, ...patch } })),
  clearFilters: () => set({ filters: NO_FILTERS, isSearchFiltering: false }),
  toggleStep: (stepId) =>
    set((s) => {
      const collapsedSteps = new Set(s.collapsedSteps);
      if (collapsedSteps.has(stepId)) collapsedSteps.delete(stepId);
      else collapsedSteps.add(stepId);
      return { collapsedSteps };
    }),
  selectItem: (selectedItemId) => set({ selectedItemId }),
  toggleExpanded: (itemId) =>
    set((s) => {
      const expandedItems = new Set(s.expandedItems);
      if (expandedItems.has(itemId)) expandedItems.delete(itemId);
      else expandedItems.add(itemId);
      return { expandedItems };
    }),
  setFollowingTail: (isFollowingTail) => {
    if (get().isFollowingTail !== isFollowingTail) set({ isFollowingTail });
  },
  setHistoryFilters: (patch) => set((s) => ({ historyFilters: { ...s.historyFilters, ...patch } })),
  jumpTo: (itemId) =>
    set((s) => {
      const run = s.selectedRunId ? s.runs[s.selectedRunId] : undefined;
      const items = run?.timeline.items ?? [];
      const item = items[positionOfId(items, itemId)];
      const patch: Partial<UiSlice> = {
        selectedItemId: itemId,
        isFollowingTail: false,
        view: 'run',
        jump: { itemId, nonce: (s.jump?.nonce ?? 0) + 1 },
      };
      if (item && hasActiveFilters(s.filters)) {
        const needle = s.filters.text.trim().toLowerCase();
        if (item.kind !== 'step' && !itemMatches(item, s.filters, needle)) {
          patch.filters = NO_FILTERS;
          patch.isSearchFiltering = false;
        }
      }
      const folds = item ? [item.kind !== 'step' ? item.stepId : 0, item.planStepId ?? 0] : [];
      if (folds.some((id) => s.collapsedSteps.has(id))) {
        const collapsedSteps = new Set(s.collapsedSteps);
        for (const id of folds) collapsedSteps.delete(id);
        patch.collapsedSteps = collapsedSteps;
      }
      return patch;
    }),
});
