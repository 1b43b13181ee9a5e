/**
 * `workbench runs list --limit N --agent NAME --status VERDICT --batch BATCH_ID`: which
 * runs of the history to list. A run's status is its one badge (docs/run-outcome.md), the
 * verdict the list's STATUS column shows, so `--status error` finds exactly the rows that
 * say `error`.
 */
import { runMatchesAgent } from '@shared/agent-filter';
import type { RunSummary } from '@shared/ipc';
import { runVerdict, type VerdictKind } from '@shared/run-outcome';
import { parsePositiveInt } from './parse-args';
import { UsageError } from './usage-error';

/** Every verdict, once: the compiler checks the list is complete. */
const KINDS: Record<VerdictKind, true> = {
  running: true,
  paused: true,
  finished: true,
  finished_with_errors: true,
  agent_failed: true,
  max_steps: true,
  cancelled: true,
  error: true,
  interrupted: true,
};
export const VERDICT_KINDS = Object.keys(KINDS) as VerdictKind[];

export interface RunsFilter {
  limit?: number;
  agent?: string;
  statuses?: ReadonlySet<VerdictKind>;
  batch?: string;
}

function isVerdictKind(value: string): value is VerdictKind {
  return Object.hasOwn(KINDS, value);
}

/** The filter the flags ask for; `--status` may repeat and may list several (`a,b`). */
export function parseRunsFilter(flags: {
  limit?: string | undefined;
  agent?: string | undefined;
  status?: readonly string[] | undefined;
  batch?: string | undefined;
}): RunsFilter {
  const limit = parsePositiveInt(flags.limit, '--limit');
  const statuses = (flags.status ?? []).flatMap((s) => s.split(',')).map((s) => s.trim());
  for (const status of statuses) {
    if (!isVerdictKind(status)) {
      throw new UsageError(`unknown --status "${status}" (${VERDICT_KINDS.join(', ')})`);
    }
  }
  return {
    ...(limit !== undefined ? { limit } : {}),
    ...(flags.agent !== undefined ? { agent: flags.agent } : {}),
    ...(statuses.length > 0 ? { statuses: new Set(statuses.filter(isVerdictKind)) } : {}),
    ...(flags.batch !== undefined ? { batch: flags.batch } : {}),
  };
}

/** The runs that pass, in the given order (the history's: newest first), the first `limit`. */
export function filterRuns(runs: readonly RunSummary[], filter: RunsFilter): RunSummary[] {
  const kept = runs.filter(
    (run) =>
      (filter.agent === undefined || runMatchesAgent(run, filter.agent)) &&
      (filter.batch === undefined || run.batch?.batchId === filter.batch) &&
      (filter.statuses === undefined || filter.statuses.has(runVerdict(run).kind)),
  );
  return filter.limit === undefined ? kept : kept.slice(0, filter.limit);
}

/** `--agent swe, --status error`: what a list that came out empty was asked for. */
export function describeFilter(filter: RunsFilter): string {
  return [
    filter.agent !== undefined ? `--agent ${filter.agent}` : undefined,
    filter.statuses ? `--status ${[...filter.statuses].join(',')}` : undefined,
    filter.batch !== undefined ? `--batch ${filter.batch}` : undefined,
  ]
    .filter((part) => part !== undefined)
    .join(', ');
}
