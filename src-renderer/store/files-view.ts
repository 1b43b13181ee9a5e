/**
 * What the Files panel shows (issue 32): open or not, for which run, at which step (null:
 * the step of the selected timeline row, else the run's last), the tree or a step's diff,
 * and the tool call whose changes the diff was opened for. The step row's chip and the
 * tool card's link open it from the timeline.
 */
import type { StepChangeCount } from '@shared/domain/files';
import { create } from 'zustand';

/** A run's step change counts as far as they were asked for (the step rows' chips). */
export interface RunChangeCounts {
  byStep: ReadonlyMap<number, StepChangeCount>;
  /** the highest finished step asked for, and whether it was asked after the run ended */
  askedStep: number;
  askedEnded: boolean;
  loading: boolean;
}

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
  /** per run: how many files each checkpointed step changed (the step rows' chips) */
  changeCounts: Record<string, RunChangeCounts>;
  /**
   * Asks for the counts when a step row appears that the last answer did not cover (a
   * running run's new step: its checkpoint is taken right after it) or the run ended;
   * one request at a time per run, a later ask is made when it returns.
   */
  loadChangeCounts(
    runId: string,
    step: number,
    isEnded: boolean,
    fetch: () => Promise<{ steps: StepChangeCount[] }>,
  ): void;
}

const NO_COUNTS: RunChangeCounts = {
  byStep: new Map(),
  askedStep: 0,
  askedEnded: false,
  loading: false,
};

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
  changeCounts: {},
  loadChangeCounts: (runId, step, isEnded, fetch) => {
    const now = get().changeCounts[runId] ?? NO_COUNTS;
    // an ended run's one answer covers every step: the rows a scroll brings in later ask
    // nothing (each new step row of a 10,000-step run used to send a request as it mounted)
    const wants = isEnded ? !now.askedEnded : step > now.askedStep;
    const patch = (change: Partial<RunChangeCounts>) =>
      set({
        changeCounts: {
          ...get().changeCounts,
          [runId]: { ...(get().changeCounts[runId] ?? NO_COUNTS), ...change },
        },
      });
    if (!wants) return;
    if (now.loading) {
      // asked again when the request under way returns (see below)
      pendingAsks.set(runId, {
        step: Math.max(step, pendingAsks.get(runId)?.step ?? 0),
        isEnded: isEnded || pendingAsks.get(runId)?.isEnded === true,
      });
      return;
    }
    patch({ askedStep: Math.max(step, now.askedStep), askedEnded: isEnded, loading: true });
    const done = (byStep?: ReadonlyMap<number, StepChangeCount>) => {
      patch({ loading: false, ...(byStep ? { byStep } : {}) });
      const again = pendingAsks.get(runId);
      pendingAsks.delete(runId);
      if (again) get().loadChangeCounts(runId, again.step, again.isEnded, fetch);
    };
    fetch().then(
      (found) => done(new Map(found.steps.map((c) => [c.step, c]))),
      () => done(),
    );
  },
}));

/** asks that came while a run's counts were being fetched */
const pendingAsks = new Map<string, { step: number; isEnded: boolean }>();
