/**
 * The run history list: filtering by free text (task, run id, model, agent), status,
 * agent, model, date, "has errors" and "stuck", newest first. Pure, so it is tested
 * without React.
 */
import type { RunSummary } from '@shared/ipc';
import { hasErrors, wasStuck } from '@shared/run-outcome';
import { agentVersionsOf, runMatchesAgent } from '@shared/agent-filter';
import { runStatus, type RunData, type RunStatus } from './run-events';

export type DateRange = 'all' | 'today' | '7d' | '30d';

export interface HistoryFilters {
  text: string;
  status: RunStatus | 'all';
  agent: string;
  /** with `agent`: one version of it (`3`), or `all` (docs/agents.md, "Versions") */
  agentVersion: string;
  model: string;
  date: DateRange;
  /** only runs that failed or had failed tool calls */
  isErrorsOnly: boolean;
  /** only runs in which stuck detection fired */
  isStuckOnly: boolean;
  /** one batch's runs (its id), runs of no batch (`none`), or all */
  batch: string;
}

export const ALL_HISTORY: HistoryFilters = {
  text: '',
  status: 'all',
  agent: 'all',
  agentVersion: 'all',
  model: 'all',
  date: 'all',
  isErrorsOnly: false,
  isStuckOnly: false,
  batch: 'all',
};

const DAY = 24 * 60 * 60 * 1000;

export function dateFloor(range: DateRange, now: number): number {
  switch (range) {
    case 'all':
      return -Infinity;
    case 'today': {
      const d = new Date(now);
      d.setHours(0, 0, 0, 0);
      return d.getTime();
    }
    case '7d':
      return now - 7 * DAY;
    case '30d':
      return now - 30 * DAY;
  }
}

export function filterHistory(
  runs: Record<string, RunData>,
  order: readonly string[],
  filters: HistoryFilters,
  now: number,
): RunSummary[] {
  const needle = filters.text.trim().toLowerCase();
  const floor = dateFloor(filters.date, now);
  const out: RunSummary[] = [];
  for (const runId of order) {
    const summary = runs[runId]?.summary;
    if (!summary) continue;
    if (filters.status !== 'all' && runStatus(summary) !== filters.status) continue;
    if (filters.agent !== 'all' && !runMatchesAgent(summary, agentRefOf(filters))) continue;
    if (filters.model !== 'all' && summary.model !== filters.model) continue;
    if (summary.startedAt < floor) continue;
    if (filters.isErrorsOnly && !hasErrors(summary)) continue;
    if (filters.isStuckOnly && !wasStuck(summary)) continue;
    if (
      filters.batch === 'none'
        ? summary.batch
        : filters.batch !== 'all' && summary.batch?.batchId !== filters.batch
    )
      continue;
    if (
      needle !== '' &&
      !`${summary.task}\n${summary.runId}\n${summary.model}\n${summary.agent}`
        .toLowerCase()
        .includes(needle)
    ) {
      continue;
    }
    out.push(summary);
  }
  return out;
}

/** the filter's agent as `workbench runs list --agent` takes it: NAME or NAME@VERSION */
function agentRefOf(filters: HistoryFilters): string {
  return filters.agentVersion === 'all'
    ? filters.agent
    : `${filters.agent}@${filters.agentVersion}`;
}

/** A batch in the history's filter menu: its id, how many runs, when it started. */
export interface BatchFacet {
  batchId: string;
  runs: number;
  startedAt: number;
}

/** Distinct agents, models and batches in the history, for the filter menus. */
export function historyFacets(runs: Record<string, RunData>, order: readonly string[]) {
  const agents = new Set<string>();
  const models = new Set<string>();
  const batches = new Map<string, BatchFacet>();
  for (const runId of order) {
    const summary = runs[runId]?.summary;
    if (!summary) continue;
    agents.add(summary.agent);
    models.add(summary.model);
    const batchId = summary.batch?.batchId;
    if (batchId) {
      const seen = batches.get(batchId);
      batches.set(batchId, {
        batchId,
        runs: (seen?.runs ?? 0) + 1,
        startedAt: Math.min(seen?.startedAt ?? Infinity, summary.startedAt),
      });
    }
  }
  return {
    agents: [...agents].sort(),
    /** the versions each user agent ran with, for the version filter */
    agentVersions: agentVersionsOf(
      order.flatMap((runId) => {
        const summary = runs[runId]?.summary;
        return summary ? [summary] : [];
      }),
    ),
    models: [...models].sort(),
    batches: [...batches.values()].sort((a, b) => b.startedAt - a.startedAt),
  };
}

export interface HistoryRow {
  summary: RunSummary;
  /** 0 for a run of its own; forks, resumed runs and continuations sit one deeper than their parent */
  depth: number;
}

/**
 * The run tree: each fork (and resumed run, and continuation) right under the run it came
 * from, in the list's order; a run whose parent is not in the list (filtered out,
 * deleted) stays a root. A chain of continuations nests one level deeper each time.
 */
export function nestForks(list: readonly RunSummary[]): HistoryRow[] {
  const ids = new Set(list.map((s) => s.runId));
  const parentOf = (s: RunSummary) => s.forkOf?.runId ?? s.resumeOf?.runId ?? s.continueOf?.runId;
  const children = new Map<string, RunSummary[]>();
  for (const summary of list) {
    const parent = parentOf(summary);
    if (parent && ids.has(parent) && parent !== summary.runId) {
      children.set(parent, [...(children.get(parent) ?? []), summary]);
    }
  }
  // "Run again": re-runs are listed right after the run they repeat, at its depth.
  const reruns = new Map<string, RunSummary[]>();
  for (const summary of list) {
    const of = summary.rerunOf;
    if (of && ids.has(of) && of !== summary.runId && !parentOf(summary)) {
      reruns.set(of, [...(reruns.get(of) ?? []), summary]);
    }
  }
  const isPlaced = (s: RunSummary) => {
    const parent = parentOf(s);
    if (parent && ids.has(parent) && parent !== s.runId) return true;
    return reruns.get(s.rerunOf ?? '')?.includes(s) ?? false;
  };
  const rows: HistoryRow[] = [];
  const seen = new Set<string>();
  const visit = (summary: RunSummary, depth: number) => {
    if (seen.has(summary.runId)) return;
    seen.add(summary.runId);
    rows.push({ summary, depth });
    for (const child of children.get(summary.runId) ?? []) visit(child, depth + 1);
    for (const sibling of reruns.get(summary.runId) ?? []) visit(sibling, depth);
  };
  for (const summary of list) if (!isPlaced(summary)) visit(summary, 0);
  // A loop of parents (only in hand-edited histories) is still listed.
  for (const summary of list) visit(summary, 0);
  return rows;
}
