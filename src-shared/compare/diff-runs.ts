/**
 * Compares runs from their events: `diffRuns` aligns two runs step by step (the compare
 * view, `workbench runs diff A B`), `compareRuns` measures N runs against the first (the
 * summary table of one task run on several profiles). Pure: the host, the CLI and tests
 * call it on events read from the history.
 */
import type { RunEvent } from '../events';
import { alignWith, type AlignOptions } from './align';
import { sharedPrefixOf } from './fork';
import { forkFigures, swapForkFigures } from './fork-figures';
import { runFacts } from './run-facts';
import { digestSteps } from './step-digest';
import { headOf, headView, refOf, type StepHead } from './step-head';
import type {
  AlignedRow,
  ComparedRun,
  RunDiff,
  RunDiffOf,
  RunDiffView,
  RunFacts,
  RunsComparison,
  SettingChange,
  StepDigest,
  StepRef,
} from './types';

export interface RunInput {
  events: readonly RunEvent[];
  /** the run is still going (an unfinished history is then `running`, not `interrupted`) */
  isLive?: boolean;
  /** the name the user gave the run in the history (`<runId>.title`), if any */
  title?: string;
}

/**
 * The settings compared: every recorded key when both runs recorded their settings,
 * else only what every run's `run.started` says (agent, model, step limit).
 */
function settingsOf(
  facts: RunFacts,
  isRecorded: boolean,
): Record<string, string | number | boolean> {
  const basics = { agent: facts.agent, ...(facts.flow ? { flow: facts.flow } : {}) };
  if (isRecorded) return { ...basics, ...facts.settings };
  return { ...basics, model: facts.model, max_steps: facts.maxSteps };
}

export function diffSettings(a: RunFacts, b: RunFacts): SettingChange[] {
  const isRecorded = a.settings !== null && b.settings !== null;
  const sa = settingsOf(a, isRecorded);
  const sb = settingsOf(b, isRecorded);
  const changes: SettingChange[] = [];
  for (const key of new Set([...Object.keys(sa), ...Object.keys(sb)])) {
    if (sa[key] === sb[key]) continue;
    changes.push({
      key,
      ...(key in sa ? { a: sa[key] } : {}),
      ...(key in sb ? { b: sb[key] } : {}),
    });
  }
  return changes;
}

const swapRow = (row: AlignedRow): AlignedRow => ({
  ...row,
  a: row.b,
  b: row.a,
  status: row.status === 'only-a' ? 'only-b' : row.status === 'only-b' ? 'only-a' : row.status,
});

function align(
  stepsA: StepHead[],
  stepsB: StepHead[],
  a: RunFacts,
  b: RunFacts,
  options: AlignOptions,
): { rows: AlignedRow[]; sharedPrefix: number; parent?: 'a' | 'b' } {
  const parentFirst = sharedPrefixOf(a, b);
  if (parentFirst !== undefined) {
    return {
      rows: alignWith(stepsA, stepsB, headView, { ...options, sharedPrefix: parentFirst }),
      sharedPrefix: parentFirst,
      parent: 'a',
    };
  }
  const forkFirst = sharedPrefixOf(b, a);
  if (forkFirst !== undefined) {
    const rows = alignWith(stepsB, stepsA, headView, { ...options, sharedPrefix: forkFirst });
    return { rows: rows.map(swapRow), sharedPrefix: forkFirst, parent: 'b' };
  }
  return { rows: alignWith(stepsA, stepsB, headView, options), sharedPrefix: 0 };
}

/** The same comparison seen from the other side (B as A): no second alignment needed. */
export function swapDiff<S extends StepRef>(diff: RunDiffOf<S>): RunDiffOf<S> {
  return {
    ...diff,
    a: diff.b,
    b: diff.a,
    stepsA: diff.stepsB,
    stepsB: diff.stepsA,
    rows: diff.rows.map(swapRow),
    settings: diff.settings.map(({ key, a, b }) => ({
      key,
      ...(b !== undefined ? { a: b } : {}),
      ...(a !== undefined ? { b: a } : {}),
    })),
    ...(diff.fork ? { fork: swapForkFigures(diff.fork) } : {}),
  };
}

const isDifference = (row: AlignedRow) =>
  row.status === 'changed' || row.status === 'only-a' || row.status === 'only-b';

/** A run folded for comparison: its figures and its steps (the events are not kept). */
export interface DigestedRun {
  facts: RunFacts;
  steps: StepDigest[];
}

/** A run as the alignment needs it: its figures and its steps' heads (no texts). */
export interface HeadedRun {
  facts: RunFacts;
  heads: StepHead[];
}

export function digestRun(run: RunInput): DigestedRun {
  const facts = runFacts(run.events, { isLive: run.isLive ?? false });
  return {
    facts: run.title !== undefined ? { ...facts, title: run.title } : facts,
    steps: digestSteps(run.events),
  };
}

export const headRun = (run: DigestedRun): HeadedRun => ({
  facts: run.facts,
  heads: run.steps.map(headOf),
});

export function diffRuns(a: RunInput, b: RunInput, options: AlignOptions = {}): RunDiff {
  return diffDigested(digestRun(a), digestRun(b), options);
}

/** The whole comparison, every step with its contents (the CLI, tests). */
export function diffDigested(a: DigestedRun, b: DigestedRun, options: AlignOptions = {}): RunDiff {
  return { ...diffHeads(headRun(a), headRun(b), options), stepsA: a.steps, stepsB: b.steps };
}

/**
 * The comparison from the runs' heads: the rows, counts and figures, each step by number
 * only (the compare view reads the contents of the rows in view in pages).
 */
export function diffHeads(a: HeadedRun, b: HeadedRun, options: AlignOptions = {}): RunDiffView {
  const { rows, sharedPrefix, parent } = align(a.heads, b.heads, a.facts, b.facts, options);
  let firstDifference: number | null = null;
  let differences = 0;
  rows.forEach((row, index) => {
    if (!isDifference(row)) return;
    differences++;
    firstDifference ??= index;
  });
  return {
    a: a.facts,
    b: b.facts,
    stepsA: a.heads.map(refOf),
    stepsB: b.heads.map(refOf),
    rows,
    firstDifference,
    differences,
    settings: diffSettings(a.facts, b.facts),
    // the outcome is the `end` step's field, so equal rows imply equal outcomes
    isEquivalent: differences === 0,
    sharedPrefix,
    ...(parent ? { fork: forkPair(a, b, sharedPrefix, parent) } : {}),
  };
}

function forkPair(a: HeadedRun, b: HeadedRun, step: number, parent: 'a' | 'b') {
  const side = (run: HeadedRun) => ({ steps: run.heads, startedAt: run.facts.startedAt });
  return parent === 'a'
    ? forkFigures(side(a), side(b), step, 'a')
    : forkFigures(side(b), side(a), step, 'b');
}

/** "step 3", "step 3 → 4", "only in B: step 5", "outcome", "the task". */
export function rowLabel(
  diff: { stepsA: readonly StepRef[]; stepsB: readonly StepRef[] },
  row: AlignedRow,
): string {
  const sa = row.a !== null ? diff.stepsA[row.a] : undefined;
  const sb = row.b !== null ? diff.stepsB[row.b] : undefined;
  const name = (s: StepRef | undefined) => {
    if (!s) return '';
    if (s.kind === 'start') return 'the task';
    if (s.kind === 'end') return 'outcome';
    if (s.kind === 'interlude') {
      return s.step === 0 ? `${s.agent} before step 1` : `${s.agent} after step ${s.step}`;
    }
    return `step ${s.step}`;
  };
  if (row.status === 'only-a') return `only in A: ${name(sa)}`;
  if (row.status === 'only-b') return `only in B: ${name(sb)}`;
  const left = name(sa || sb);
  const right = name(sb);
  return left === right || !right ? left : `${left} → ${right.replace(/^step /, '')}`;
}

export function compareRuns(runs: readonly RunInput[]): RunsComparison {
  return compareHeaded(runs.map((run) => headRun(digestRun(run))));
}

export function compareHeaded(runs: readonly HeadedRun[]): RunsComparison {
  const [baseline, ...others] = runs;
  if (!baseline) return { runs: [], hasMixedTasks: false };
  const compared: ComparedRun[] = [{ facts: baseline.facts, versusBaseline: null }];
  for (const run of others) {
    const diff = diffHeads(baseline, run);
    const first = diff.firstDifference === null ? null : diff.rows[diff.firstDifference]!;
    compared.push({
      facts: diff.b,
      versusBaseline: {
        isEquivalent: diff.isEquivalent,
        differences: diff.differences,
        firstDifference: first
          ? {
              stepA: first.a !== null ? diff.stepsA[first.a]!.step : null,
              stepB: first.b !== null ? diff.stepsB[first.b]!.step : null,
              label: rowLabel(diff, first),
            }
          : null,
        settings: diff.settings,
      },
    });
  }
  const tasks = new Set(compared.map((r) => r.facts.task));
  return { runs: compared, hasMixedTasks: tasks.size > 1 };
}
