/**
 * What the Files panel shows (issue 32): open or not, for which run, at which step (null:
 * the step of the selected timeline row, else the run's last), the tree or a step's diff,
 * and the tool call whose changes the diff was opened for. The step row's chip and the
 * tool card's link open it from the timeline.
 */
import { create } from 'zustand';

export interface FilesViewState {
  runId: string | null;
  isOpen: boolean;
  step: number | null;
  mode: 'tree' | 'diff';
  toolCallId: string | null;
  open(
    runId: string,
    options?: { step?: number; mode?: 'tree' | 'diff'; toolCallId?: string },
  ): void;
  setStep(step: number | null): void;
  setMode(mode: 'tree' | 'diff'): void;
  close(): void;
  /** per run: the steps that have a checkpoint (the step rows' chips), once asked for */
  checkpoints: Record<string, ReadonlySet<number> | 'loading'>;
  loadCheckpoints(runId: string, list: () => Promise<{ step: number }[]>): void;
}

export const useFilesView = create<FilesViewState>((set, get) => ({
  runId: null,
  isOpen: false,
  step: null,
  mode: 'tree',
  toolCallId: null,
  open: (runId, options = {}) =>
    set({
      runId,
      isOpen: true,
      step: options.step ?? null,
      mode: options.mode ?? 'tree',
      toolCallId: options.toolCallId ?? null,
    }),
  setStep: (step) => set({ step, toolCallId: null }),
  setMode: (mode) => set({ mode, toolCallId: null }),
  close: () => set({ isOpen: false, toolCallId: null }),
  checkpoints: {},
  loadCheckpoints: (runId, list) => {
    if (get().checkpoints[runId] !== undefined) return;
    set({ checkpoints: { ...get().checkpoints, [runId]: 'loading' } });
    list().then(
      (found) =>
        set({ checkpoints: { ...get().checkpoints, [runId]: new Set(found.map((c) => c.step)) } }),
      () => set({ checkpoints: { ...get().checkpoints, [runId]: new Set() } }),
    );
  },
}));
