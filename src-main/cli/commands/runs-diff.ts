/**
 * `workbench runs diff A B [C ...] [--json]`: compares runs step by step. Each operand
 * is a run of the history, named as `runs show` takes it (an id, a unique prefix of one,
 * `last`), or an exported run file (`.jsonl`), so a run can be checked against a saved
 * golden run in CI. Two runs: the summary and every aligned difference; more: the
 * summary table, each against the first. Exit 0 when the runs are equivalent (same
 * steps, same contents, same outcome), 1 when they differ, 2 for bad usage (an unknown
 * run, an unreadable file) or any other failure.
 */
import { existsSync, readFileSync } from 'node:fs';
import { compareRuns, diffRuns, type RunInput } from '@shared/compare/diff-runs';
import type { RunSummary } from '@shared/ipc';
import type { RunStore } from '../../runtime/runs/run-store';
import { looksLikeRunEvent } from '@shared/events';
import { readForComparison } from '../../runtime/runs/compare-reader';
import { MAX_COMPARED_RUNS } from '../../runtime/runs/run-compare';
import { diffJson, formatComparison, formatRunDiff } from '../diff-report';
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

function loadOperand(store: RunStore, runs: readonly RunSummary[], operand: string): RunInput {
  const runId = operand === '' ? undefined : runIdOf(operand, runs);
  const summary = runId !== undefined ? store.summary(runId) : undefined;
  const stored = runId !== undefined && summary ? store.readText(runId) : undefined;
  if (runId !== undefined && summary && stored !== undefined) {
    const log = readForComparison(stored, runId);
    warn(log.warnings);
    const isLive = summary.outcome === undefined && !summary.isInterrupted;
    return {
      events: log.events,
      isLive,
      ...(summary.title !== undefined ? { title: summary.title } : {}),
    };
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
  return { events: log.events };
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
  let runs: RunInput[];
  try {
    const history = store.list();
    runs = positionals.map((operand) => loadOperand(store, history, operand));
  } finally {
    store.close();
  }
  const color = process.stdout.isTTY === true && !process.env['NO_COLOR'];
  if (runs.length === 2) {
    const diff = diffRuns(runs[0]!, runs[1]!);
    process.stdout.write(
      values.json
        ? `${JSON.stringify(diffJson(diff), null, 2)}\n`
        : formatRunDiff(diff, { color, maxLines: 40 }),
    );
    return diff.isEquivalent ? EXIT.finished : EXIT_DIFFERENT;
  }
  const comparison = compareRuns(runs);
  process.stdout.write(
    values.json ? `${JSON.stringify(comparison, null, 2)}\n` : formatComparison(comparison),
  );
  const isAllEquivalent = comparison.runs.every((r) => r.versusBaseline?.isEquivalent !== false);
  return isAllEquivalent ? EXIT.finished : EXIT_DIFFERENT;
}
