/**
 * Compare runs from the history: reads each run's events, folds them into the form
 * comparison works on (`src-shared/compare/`) and keeps the last few folded runs, so
 * opening a pair from the N-run table, going back, or refreshing a live run re-reads
 * only what changed. Used by the `runs:diff` / `runs:compare` requests; the CLI does the
 * same on the store it opens (and on exported files).
 */
import {
  compareDigested,
  diffDigested,
  digestRun,
  type DigestedRun,
} from '@shared/compare/diff-runs';
import type { RunDiff, RunsComparison } from '@shared/compare/types';
import { readForComparison } from './compare-reader';
import type { RunHistory } from './run-history';

export class RunCompareError extends Error {
  constructor(
    readonly code: 'not_found' | 'invalid_input',
    message: string,
  ) {
    super(message);
    this.name = 'RunCompareError';
  }
}

/** Most runs compared at once (the summary table stays readable, the work bounded). */
export const MAX_COMPARED_RUNS = 12;
/** Folded runs kept: one N-run table and the pairs opened from it... */
const CACHED_RUNS = MAX_COMPARED_RUNS;
/** ...unless they are long: about 12 MB per 10,000 steps stays in memory */
const CACHED_STEPS = 40_000;

export class RunComparer {
  /** runId -> the folded run and the history version it was folded from (LRU order) */
  private readonly cache = new Map<string, { version: string; run: DigestedRun }>();

  constructor(
    private readonly history: RunHistory,
    private readonly isLive: (runId: string) => boolean = () => false,
  ) {}

  diff(a: string, b: string): RunDiff {
    return diffDigested(this.titled(a), this.titled(b));
  }

  compare(runIds: readonly string[]): RunsComparison {
    if (runIds.length < 2 || runIds.length > MAX_COMPARED_RUNS) {
      throw new RunCompareError(
        'invalid_input',
        `Compare takes 2 to ${MAX_COMPARED_RUNS} runs, got ${runIds.length}`,
      );
    }
    if (new Set(runIds).size !== runIds.length) {
      throw new RunCompareError('invalid_input', 'A run is listed twice');
    }
    return compareDigested(runIds.map((id) => this.titled(id)));
  }

  /**
   * The folded run with its current title: a rename changes no event, so the cached fold
   * is reused and only the title is read again.
   */
  private titled(runId: string): DigestedRun {
    const run = this.load(runId);
    const title = this.history.summary(runId)?.title;
    const { title: _old, ...facts } = run.facts;
    return { ...run, facts: title === undefined ? facts : { ...facts, title } };
  }

  private load(runId: string): DigestedRun {
    const summary = this.history.summary(runId);
    const isLive = this.isLive(runId);
    // a finished run never changes; a live one is read again once it has moved on
    const version = `${summary?.lastSeq ?? '?'}:${summary?.outcome ?? ''}:${isLive}`;
    const cached = this.cache.get(runId);
    if (cached && summary && cached.version === version) {
      this.cache.delete(runId);
      this.cache.set(runId, cached);
      return cached.run;
    }
    const text = this.history.readText?.(runId);
    const events =
      text !== undefined ? readForComparison(text, runId).events : this.history.read(runId)?.events;
    if (!events || events.length === 0) {
      throw new RunCompareError('not_found', `No run with id ${runId}`);
    }
    const run = digestRun({ events, isLive });
    this.cache.delete(runId);
    this.cache.set(runId, { version, run });
    let steps = 0;
    for (const entry of this.cache.values()) steps += entry.run.steps.length;
    // oldest first, never the run just read
    for (const [id, entry] of this.cache) {
      if (this.cache.size <= CACHED_RUNS && steps <= CACHED_STEPS) break;
      if (id === runId) continue;
      this.cache.delete(id);
      steps -= entry.run.steps.length;
    }
    return run;
  }
}
