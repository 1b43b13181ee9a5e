/**
 * How many files each checkpointed step added, changed and deleted (issue 32): what the
 * timeline's "N files changed" chip shows, so a step that changed nothing has no chip.
 * Counted as a step's diff is (workspace-changes.ts): a file the snapshot took again with
 * the same bytes is not a change, and folders do not count (an added folder's files do).
 * A checkpoint never changes once written, so each step's count is kept per run folder
 * (its inode: a run deleted and recorded again under its id starts over) and only new
 * checkpoints are counted on a later ask (a running run's timeline asks after each step).
 */
import type { StepChangeCount } from '@shared/domain/files';
import { changedEntries } from './workspace-changes';
import type { WorkspaceHistory } from './workspace-history';

/**
 * Runs whose counts are kept: the timelines a user has open, and many more; a `serve` or
 * desktop session that opens thousands of runs over days keeps only the latest (a run
 * dropped here is counted again if it is opened again).
 */
export const COUNTED_RUNS_KEPT = 256;

export class StepChangeCounter {
  /** runId -> the run folder it was counted in, and step -> count; least recently asked first */
  private readonly counted = new Map<
    string,
    { folder: string; steps: Map<number, StepChangeCount> }
  >();

  constructor(private readonly history: WorkspaceHistory) {}

  /** how many runs' counts are held (bounded by COUNTED_RUNS_KEPT) */
  get runsHeld(): number {
    return this.counted.size;
  }

  counts(runId: string): StepChangeCount[] {
    const steps = this.history.steps(runId);
    const folder = this.history.folderId(runId) ?? '';
    let entry = this.counted.get(runId);
    if (!entry || entry.folder !== folder) entry = { folder, steps: new Map() };
    // the most recently asked run goes last; the least recently asked is dropped first
    this.counted.delete(runId);
    this.counted.set(runId, entry);
    if (this.counted.size > COUNTED_RUNS_KEPT) {
      this.counted.delete(this.counted.keys().next().value as string);
    }
    const known = entry.steps;
    const out: StepChangeCount[] = [];
    for (const step of steps) {
      let count = known.get(step);
      if (!count) {
        count = this.count(runId, step);
        known.set(step, count);
      }
      out.push(count);
    }
    return out;
  }

  private count(runId: string, step: number): StepChangeCount {
    // the step's archive says what can have changed: only those bytes are located
    const listed = this.history.stateAt(runId, step, { only: new Set() });
    const after = this.history.stateAt(runId, step, { only: listed.archived });
    const before = this.history.stateAt(runId, this.history.previousCheckpoint(runId, step), {
      only: after.archived,
    });
    const count: StepChangeCount = { step, added: 0, changed: 0, deleted: 0 };
    for (const change of changedEntries(this.history, before, after, true)) {
      const kind = (change.after ?? change.before)!.kind;
      if (kind === 'd') continue;
      count[change.change]++;
    }
    return count;
  }
}
