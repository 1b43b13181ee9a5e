/**
 * `workbench runs diff A B [C ...] [--json]`: compares runs step by step. Each operand
 * is a run of the history, named as `runs show` takes it (an id, a unique prefix of one,
 * `last`), or an exported run file (`.jsonl`), so a run can be checked against a saved
 * golden run in CI. Two runs: the summary and every aligned difference; more: the
 * summary table, each against the first. Exit 0 when the runs are equivalent (same
 * steps, same contents, same outcome), 1 when they differ, 2 for bad usage (an unknown
 * run, an unreadable file) or any other failure. Two runs of the history also get a
 * "Workspaces" section: the files that differ at the end and where the workspaces first
 * part (read from the checkpoints; it does not change the exit status).
 *
 * A finished run of the history is read from its stored step digests
 * (`<runId>.compare.json` / `.compare.steps`, the ones the compare view uses), not from
 * its log; a run without them is read from its log once and gets them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  compareHeaded,
  diffDigested,
  digestRun,
  headRun,
  type DigestedRun,
} from '@shared/compare/diff-runs';
import type { RunSummary } from '@shared/ipc';
import type { RunStore } from '../../runtime/runs/run-store';
import { looksLikeRunEvent } from '@shared/events';
import { readForComparison } from '../../runtime/runs/compare-reader';
import {
  digestFilesOf,
  loadDigests,
  logStamp,
  readStoredSteps,
  saveDigests,
} from '../../runtime/runs/compare-digests';
import { MAX_COMPARED_RUNS } from '../../runtime/runs/run-compare';
import { defaultHome } from '../../runtime/config/home';
import { CheckpointStore } from '../../runtime/runs/checkpoint-store';
import { WorkspaceComparer } from '../../runtime/timetravel/workspace-compare';
import { WorkspaceHistory } from '../../runtime/timetravel/workspace-history';
import { diffJson, formatComparison, formatRunDiff } from '../diff-report';
import { compareWorkspaces, workspacesLines } from '../workspaces-report';
import { parseCommandArgs } from '../parse-args';
import { resolveRunRef } from '../run-ref';
import { EXIT, HelpRequested, UsageError } from '../usage-error';

const USAGE =
  'usage: workbench runs diff A B [C ...] [--json]  (runs: an id, a unique prefix or last; or exported .jsonl files)';
export const EXIT_DIFFERENT = 1;

function warn(warnings: readonly string[]): void {
  for (const warning of warnings) process.stderr.write(`workbench: ${warning}\n`);
}

/** The run id a history file starts with (its first line is the run's run.started). */
function fileRunId(text: string, file: string): string {
  const end = text.indexOf('\n');
  const first = end === -1 ? text : text.slice(0, end);
  try {
    const event = JSON.parse(first) as unknown;
    if (looksLikeRunEvent(event) && event.type === 'run.started') return event.runId;
  } catch {
    // reported below
  }
  throw new UsageError(`${file} is not a run (its first line is not a run.started event)`);
}

/**
 * The run an operand names, as `runs show` resolves it (an id, a unique prefix, `last`),
 * or undefined when it names no run (then it is a file). An ambiguous prefix is refused
 * with its candidates, as `runs show` does, rather than read as a file name.
 */
function runIdOf(operand: string, runs: readonly RunSummary[]): string | undefined {
  if (operand === 'last' || runs.some((r) => r.runId.startsWith(operand))) {
    return resolveRunRef(operand, runs);
  }
  return undefined;
}

/** A run to compare, with its id in the history (an exported file has none: no workspace). */
interface Operand {
  run: DigestedRun;
  runId?: string;
}

/**
 * A finished run from its stored digests, as the compare view reads it (the log is not
 * read); undefined when it has none that match its log.
 */
function storedRun(store: RunStore, runId: string, title: string | undefined) {
  const files = digestFilesOf(store.logPath(runId));
  const stored = loadDigests(files);
  if (!stored) return undefined;
  const { title: _stored, ...facts } = stored.facts;
  return {
    facts: title !== undefined ? { ...facts, title } : facts,
    steps: readStoredSteps(files, stored, 0, stored.heads.length),
  };
}

/** Stores a finished run's digests for the next comparison (a full disk only loses the speed-up). */
function storeDigests(
  store: RunStore,
  runId: string,
  run: DigestedRun,
  stamp: ReturnType<typeof logStamp>,
) {
  if (!stamp) return;
  try {
    saveDigests(digestFilesOf(store.logPath(runId)), stamp, headRun(run), run.steps);
  } catch {
    // the comparison was made from the log: nothing is lost
  }
}

function loadOperand(store: RunStore, runs: readonly RunSummary[], operand: string): Operand {
  const runId = operand === '' ? undefined : runIdOf(operand, runs);
  const summary = runId !== undefined ? store.summary(runId) : undefined;
  const isLive = summary !== undefined && summary.outcome === undefined && !summary.isInterrupted;
  if (runId !== undefined && summary && !isLive) {
    const run = storedRun(store, runId, summary.title);
    if (run) return { run, runId };
  }
  // taken before the log is read: a log that grows meanwhile leaves digests that are not used
  const stamp =
    runId !== undefined && summary && !isLive
      ? logStamp(digestFilesOf(store.logPath(runId)))
      : undefined;
  const logText = runId !== undefined && summary ? store.readText(runId) : undefined;
  if (runId !== undefined && summary && logText !== undefined) {
    const log = readForComparison(logText, runId);
    warn(log.warnings);
    const run = digestRun({
      events: log.events,
      isLive,
      ...(summary.title !== undefined ? { title: summary.title } : {}),
    });
    if (!isLive) storeDigests(store, runId, run, stamp);
    return { run, runId };
  }
  if (!existsSync(operand)) {
    throw new UsageError(
      `no run with id ${operand}, and no such file (see: workbench runs list, or use "last")`,
    );
  }
  let text: string;
  try {
    text = readFileSync(operand, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${operand}: ${(error as Error).message}`);
  }
  const log = readForComparison(text, fileRunId(text, operand));
  warn(log.warnings);
  return { run: digestRun({ events: log.events }) };
}

/** The runs' files at every step, from the checkpoints beside the history (as `runs patch`). */
function workspaceComparer(store: RunStore): WorkspaceComparer {
  const checkpoints = new CheckpointStore(join(defaultHome(), 'runs'));
  return new WorkspaceComparer(
    new WorkspaceHistory(checkpoints, (id) => {
      const forkOf = store.summary(id)?.forkOf;
      return forkOf ? { forkOf } : undefined;
    }),
  );
}

/**
 * Like diff(1), any trouble exits 2, never 1: a script reading 1 as "the runs differ"
 * must not mistake a failure for an answer.
 */
export function runsDiffCommand(args: string[], openStore: () => RunStore): number {
  try {
    return runsDiff(args, openStore);
  } catch (error) {
    if (error instanceof UsageError || error instanceof HelpRequested) throw error;
    process.stderr.write(
      `workbench: runs diff failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return EXIT.usage;
  }
}

function runsDiff(args: string[], openStore: () => RunStore): number {
  const { values, positionals } = parseCommandArgs('runs diff', args, {
    json: { type: 'boolean', default: false },
  });
  if (positionals.length < 2) throw new UsageError(USAGE);
  if (positionals.length > MAX_COMPARED_RUNS) {
    throw new UsageError(`runs diff compares at most ${MAX_COMPARED_RUNS} runs`);
  }
  const store = openStore();
  let operands: Operand[];
  try {
    const history = store.list();
    operands = positionals.map((operand) => loadOperand(store, history, operand));
    if (operands.length === 2) {
      const diff = diffDigested(operands[0]!.run, operands[1]!.run);
      const workspaces = compareWorkspaces(workspaceComparer(store), diff, [
        operands[0]!.runId,
        operands[1]!.runId,
      ]);
      const color = process.stdout.isTTY === true && !process.env['NO_COLOR'];
      process.stdout.write(
        values.json
          ? `${JSON.stringify({ ...diffJson(diff), workspaces }, null, 2)}\n`
          : `${formatRunDiff(diff, { color, maxLines: 40 })}${workspacesLines(workspaces).join('\n')}\n`,
      );
      return diff.isEquivalent ? EXIT.finished : EXIT_DIFFERENT;
    }
  } finally {
    store.close();
  }
  const comparison = compareHeaded(operands.map((operand) => headRun(operand.run)));
  process.stdout.write(
    values.json ? `${JSON.stringify(comparison, null, 2)}\n` : formatComparison(comparison),
  );
  const isAllEquivalent = comparison.runs.every((r) => r.versusBaseline?.isEquivalent !== false);
  return isAllEquivalent ? EXIT.finished : EXIT_DIFFERENT;
}
