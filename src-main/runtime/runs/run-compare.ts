/**
 * Compare runs from the history. Each run is aligned from its steps' heads (step-head.ts);
 * a finished run's digests are stored beside its history (compare-digests.ts) the first
 * time it is compared (or when it finishes, see `store`), so a later comparison reads
 * neither history, and the steps' contents are read a page at a time for the rows in view
 * (`runs:steps`). The last few runs are kept in memory, so opening a pair from the N-run
 * table, going back, or refreshing a live run re-reads only what changed. Used by the
 * `runs:diff` / `runs:compare` / `runs:steps` requests; the CLI aligns the events of the
 * store it opens (and of exported files) itself.
 */
import {
  compareHeaded,
  diffHeads,
  digestRun,
  headRun,
  type HeadedRun,
} from '@shared/compare/diff-runs';
import type { RunDiffView, RunsComparison, StepDigest } from '@shared/compare/types';
import { readForComparison } from './compare-reader';
import {
  digestFilesOf,
  loadDigests,
  logStamp,
  readStoredSteps,
  saveDigests,
  type DigestFiles,
  type StoredDigests,
} from './compare-digests';
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
/** Most steps one `runs:steps` page holds (the compare view asks for about 64). */
export const MAX_STEPS_PAGE = 500;
/** Folded runs kept: one N-run table and the pairs opened from it... */
const CACHED_RUNS = MAX_COMPARED_RUNS;
/** ...unless they are long (heads are small; digests kept in memory are not) */
const CACHED_STEPS = 40_000;

interface Loaded {
  run: HeadedRun;
  /** the digests themselves: in memory (a live run, a history without files)... */
  steps?: StepDigest[];
  /** ...or stored beside the history */
  stored?: { files: DigestFiles; digests: StoredDigests };
}

export class RunComparer {
  /** runId -> the loaded run and the history version it was loaded from (LRU order) */
  private readonly cache = new Map<string, { version: string; loaded: Loaded }>();

  constructor(
    private readonly history: RunHistory,
    private readonly isLive: (runId: string) => boolean = () => false,
  ) {}

  diff(a: string, b: string): RunDiffView {
    return diffHeads(this.titled(a), this.titled(b));
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
    return compareHeaded(runIds.map((id) => this.titled(id)));
  }

  /** The digests of steps from..to (exclusive; indexes of `stepsA` / `stepsB`) of a run. */
  steps(runId: string, from: number, to: number): StepDigest[] {
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to < from) {
      throw new RunCompareError('invalid_input', `Bad step range ${from}..${to}`);
    }
    if (to - from > MAX_STEPS_PAGE) {
      throw new RunCompareError(
        'invalid_input',
        `At most ${MAX_STEPS_PAGE} steps a page, asked ${to - from}`,
      );
    }
    const { steps, stored } = this.load(runId);
    if (steps) return steps.slice(from, to);
    return readStoredSteps(stored!.files, stored!.digests, from, to);
  }

  /**
   * Stores a run's digests beside its history if they are not there yet (a run that just
   * finished): its first comparison then reads no history. Keeps nothing in memory.
   */
  store(runId: string): void {
    if (this.isLive(runId) || !this.history.summary(runId)) return;
    const files = this.filesOf(runId);
    if (!files || loadDigests(files)) return;
    this.readAndStore(runId, files);
  }

  /**
   * The run with its current title: a rename changes no event, so the cached fold
   * is reused and only the title is read again.
   */
  private titled(runId: string): HeadedRun {
    const { run } = this.load(runId);
    const title = this.history.summary(runId)?.title;
    const { title: _old, ...facts } = run.facts;
    return { ...run, facts: title === undefined ? facts : { ...facts, title } };
  }

  private filesOf(runId: string): DigestFiles | undefined {
    try {
      return this.history.logPath ? digestFilesOf(this.history.logPath(runId)) : undefined;
    } catch {
      return undefined;
    }
  }

  private load(runId: string): Loaded {
    const summary = this.history.summary(runId);
    const isLive = this.isLive(runId);
    // a finished run never changes; a live one is read again once it has moved on
    const version = `${summary?.lastSeq ?? '?'}:${summary?.outcome ?? ''}:${isLive}`;
    const cached = this.cache.get(runId);
    if (cached && summary && cached.version === version) {
      this.cache.delete(runId);
      this.cache.set(runId, cached);
      return cached.loaded;
    }
    const files = isLive ? undefined : this.filesOf(runId);
    const stored = files ? loadDigests(files) : undefined;
    const loaded: Loaded =
      files && stored
        ? { run: stored, stored: { files, digests: stored } }
        : this.read(runId, isLive, files);
    this.remember(runId, version, loaded);
    return loaded;
  }

  /** Reads the history; a finished run's digests are stored for the next time. */
  private read(runId: string, isLive: boolean, files: DigestFiles | undefined): Loaded {
    if (files) {
      const stored = this.readAndStore(runId, files);
      if (stored) return stored;
    }
    const digested = digestRun({ events: this.events(runId), isLive });
    return { run: headRun(digested), steps: digested.steps };
  }

  private readAndStore(runId: string, files: DigestFiles): Loaded | undefined {
    // taken before the history is read: one that grows meanwhile leaves unused digests
    const stamp = logStamp(files);
    if (!stamp) return undefined;
    const digested = digestRun({ events: this.events(runId) });
    const run = headRun(digested);
    try {
      const digests = saveDigests(files, stamp, run, digested.steps);
      return { run, stored: { files, digests } };
    } catch {
      // a full or read-only disk: the comparison works from memory, as before
      return { run, steps: digested.steps };
    }
  }

  private events(runId: string) {
    const text = this.history.readText?.(runId);
    const events =
      text !== undefined ? readForComparison(text, runId).events : this.history.read(runId)?.events;
    if (!events || events.length === 0) {
      throw new RunCompareError('not_found', `No run with id ${runId}`);
    }
    return events;
  }

  private remember(runId: string, version: string, loaded: Loaded): void {
    this.cache.delete(runId);
    this.cache.set(runId, { version, loaded });
    const weight = (entry: Loaded) =>
      entry.steps ? entry.steps.length : entry.run.heads.length / 8;
    let steps = 0;
    for (const entry of this.cache.values()) steps += weight(entry.loaded);
    // oldest first, never the run just read
    for (const [id, entry] of this.cache) {
      if (this.cache.size <= CACHED_RUNS && steps <= CACHED_STEPS) break;
      if (id === runId) continue;
      this.cache.delete(id);
      steps -= weight(entry.loaded);
    }
  }
}
