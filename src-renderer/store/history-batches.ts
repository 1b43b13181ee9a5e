/**
 * A batch's runs under one entry of the history list (issue 25 item 6): a batch of 3 tasks
 * x 2 profiles x 5 repeats is 30 runs, which used to push every other run out of sight.
 * The entry sits where the batch's newest run would, says the batch's id, its agent, how
 * many runs and their verdicts (the badges' own kinds, run-outcome.ts), and lists its runs
 * (each with its forks and re-runs, as nestForks placed them) when it is open. Pure and
 * linear in the rows, so a long history stays fast.
 */
import type { RunSummary } from '@shared/ipc';
import { tallyVerdicts, type VerdictTally } from '@shared/run-outcome';
import type { HistoryRow } from './history';

export interface BatchEntry {
  kind: 'batch';
  batchId: string;
  agent: string;
  /** the batch's runs in the list (forks of them and other runs nested under them aside) */
  runs: number;
  /** distinct tasks among them */
  tasks: number;
  tally: VerdictTally;
  /** its newest run's start */
  startedAt: number;
  isOpen: boolean;
}

export type HistoryEntry = ({ kind: 'run' } & HistoryRow) | BatchEntry;

export interface GroupOptions {
  /** batches the user opened (true) or closed (false); the others follow `autoOpen` */
  toggled: ReadonlyMap<string, boolean>;
  /** a batch filtered for: open unless the user closed it */
  filteredBatch?: string | undefined;
  /** a run that must be in view (the one shown): its batch opens unless the user closed it */
  shownRunId?: string | undefined;
}

export function groupBatches(rows: readonly HistoryRow[], options: GroupOptions): HistoryEntry[] {
  // Each root row with the rows nested under it (its forks, resumes and re-runs) is a tree;
  // a tree whose root is a batch's run belongs to that batch.
  const trees: { batchId?: string; rows: HistoryRow[] }[] = [];
  for (const row of rows) {
    const last = trees.at(-1);
    if (row.depth > 0 && last) last.rows.push(row);
    else {
      const batchId = row.summary.batch?.batchId;
      trees.push({ ...(batchId ? { batchId } : {}), rows: [row] });
    }
  }
  const members = new Map<string, HistoryRow[][]>();
  for (const tree of trees) {
    if (!tree.batchId) continue;
    const seen = members.get(tree.batchId);
    if (seen) seen.push(tree.rows);
    else members.set(tree.batchId, [tree.rows]);
  }
  const entries: HistoryEntry[] = [];
  const placed = new Set<string>();
  for (const tree of trees) {
    if (!tree.batchId) {
      for (const row of tree.rows) entries.push({ kind: 'run', ...row });
      continue;
    }
    if (placed.has(tree.batchId)) continue;
    placed.add(tree.batchId);
    const batchTrees = members.get(tree.batchId) ?? [];
    const own: RunSummary[] = batchTrees.map((t) => t[0]!.summary);
    const isOpen =
      options.toggled.get(tree.batchId) ??
      (options.filteredBatch === tree.batchId ||
        (options.shownRunId !== undefined &&
          batchTrees.some((t) => t.some((row) => row.summary.runId === options.shownRunId))));
    entries.push({
      kind: 'batch',
      batchId: tree.batchId,
      agent: own[0]?.flow ? `${own[0].flow} flow` : (own[0]?.agent ?? ''),
      runs: own.length,
      tasks: new Set(own.map((s) => s.batch?.taskIndex ?? s.task)).size,
      tally: tallyVerdicts(own),
      startedAt: own.reduce((latest, s) => Math.max(latest, s.startedAt), 0),
      isOpen,
    });
    if (!isOpen) continue;
    for (const rowsOfTree of batchTrees) {
      for (const row of rowsOfTree) entries.push({ kind: 'run', ...row, depth: row.depth + 1 });
    }
  }
  return entries;
}
