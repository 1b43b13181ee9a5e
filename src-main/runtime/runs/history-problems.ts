/**
 * Summaries of runs whose history on disk is incomplete: the disk refused the end of the
 * log, or the file lost data after the run ended (RunStore).
 */
import type { RunSummary } from '@shared/ipc';
import type { IndexEntry } from './run-index-file';

/** The summary of a run whose history on disk stops at `savedSeq`. */
export function withHistoryProblem(
  summary: RunSummary,
  savedSeq: number,
  problem?: string,
): RunSummary {
  const { isInterrupted: _wasInterrupted, ...rest } = summary;
  return {
    ...rest,
    lastSeq: savedSeq,
    historyIncomplete: problem ?? `events after #${savedSeq} are missing from its history`,
  };
}

/** The indexed summary of a finished run whose log is now shorter than when it was indexed. */
export function lostData(entry: IndexEntry, size: number): RunSummary | null {
  return entry.summary.finishedAt !== undefined && size < entry.size ? entry.summary : null;
}

export function lostDataProblem(
  entry: IndexEntry | undefined,
  size: number,
  lastSeq: number,
): string {
  const was = entry ? ` from ${entry.size} to ${size} bytes` : '';
  return (
    `its history file shrank${was} after the run ended (a disk error, or edited outside ` +
    `the app): ${lastSeq > 0 ? `events after #${lastSeq} are missing` : 'no event is left'}`
  );
}
