/**
 * Which run a user means on the command line: the full id, `last` (the newest run), or
 * a unique prefix of an id (`runs show 20250101T12`). An ambiguous prefix lists the
 * candidates instead of guessing.
 */
import type { RunSummary } from '@shared/ipc';
import { UsageError } from './usage-error';

const SHOWN_CANDIDATES = 5;

export function resolveRunRef(ref: string, runs: readonly RunSummary[]): string {
  if (ref === 'last') {
    const newest = [...runs].sort((a, b) => b.startedAt - a.startedAt)[0];
    if (!newest)
      throw new UsageError('there are no runs yet (start one with: workbench run "TASK")');
    return newest.runId;
  }
  if (runs.some((r) => r.runId === ref)) return ref;
  const matches = runs.filter((r) => r.runId.startsWith(ref));
  if (matches.length === 1) return matches[0]!.runId;
  if (matches.length === 0) {
    throw new UsageError(`no run with id ${ref} (see: workbench runs list, or use "last")`);
  }
  const shown = matches
    .slice(0, SHOWN_CANDIDATES)
    .map((r) => r.runId)
    .join(', ');
  const more =
    matches.length > SHOWN_CANDIDATES ? `, and ${matches.length - SHOWN_CANDIDATES} more` : '';
  throw new UsageError(
    `"${ref}" matches ${matches.length} runs (${shown}${more}): give more of the id`,
  );
}
