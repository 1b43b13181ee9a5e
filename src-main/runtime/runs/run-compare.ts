/**
 * Compare runs from the history: reads each run's events and hands them to the pure
 * comparison (`src-shared/compare/`). Used by the `runs:diff` / `runs:compare` requests;
 * the CLI does the same on the store it opens (and on exported files).
 */
import { compareRuns, diffRuns, type RunInput } from '@shared/compare/diff-runs';
import type { RunDiff, RunsComparison } from '@shared/compare/types';
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

function load(history: RunHistory, runId: string, isLive: (id: string) => boolean): RunInput {
  const log = history.read(runId);
  if (!log || log.events.length === 0) {
    throw new RunCompareError('not_found', `No run with id ${runId}`);
  }
  return { events: log.events, isLive: isLive(runId) };
}

export function diffStoredRuns(
  history: RunHistory,
  a: string,
  b: string,
  isLive: (id: string) => boolean = () => false,
): RunDiff {
  return diffRuns(load(history, a, isLive), load(history, b, isLive));
}

export function compareStoredRuns(
  history: RunHistory,
  runIds: readonly string[],
  isLive: (id: string) => boolean = () => false,
): RunsComparison {
  if (runIds.length < 2 || runIds.length > MAX_COMPARED_RUNS) {
    throw new RunCompareError(
      'invalid_input',
      `Compare takes 2 to ${MAX_COMPARED_RUNS} runs, got ${runIds.length}`,
    );
  }
  if (new Set(runIds).size !== runIds.length) {
    throw new RunCompareError('invalid_input', 'A run is listed twice');
  }
  return compareRuns(runIds.map((id) => load(history, id, isLive)));
}
