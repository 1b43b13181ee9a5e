/**
 * The aligned rows whose two sides are steps of each run (issue 32 item 5): where the
 * workspaces can be compared step against step. The shared prefix of a fork and its
 * parent is left out (the same steps, run once), and so are the task, the outcome, the
 * interludes and rows with one side.
 */
import type { AlignedRow, StepRef } from './types';

export interface AlignedStepPair {
  /** index into the comparison's rows */
  row: number;
  stepA: number;
  stepB: number;
}

/** The pair of steps a row aligns, or null when it does not align a step with a step. */
export function alignedSteps(
  diff: { stepsA: readonly StepRef[]; stepsB: readonly StepRef[] },
  row: AlignedRow,
): { stepA: number; stepB: number } | null {
  if (row.status === 'shared' || row.a === null || row.b === null) return null;
  const a = diff.stepsA[row.a];
  const b = diff.stepsB[row.b];
  if (a?.kind !== 'step' || b?.kind !== 'step') return null;
  return { stepA: a.step, stepB: b.step };
}

export function alignedStepPairs(diff: {
  stepsA: readonly StepRef[];
  stepsB: readonly StepRef[];
  rows: readonly AlignedRow[];
}): AlignedStepPair[] {
  return diff.rows.flatMap((row, index) => {
    const steps = alignedSteps(diff, row);
    return steps ? [{ row: index, ...steps }] : [];
  });
}
