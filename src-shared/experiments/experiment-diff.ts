/**
 * `workbench experiment diff A B`: a variant of experiment B against a variant of
 * experiment A over the items both ran (paired by item id), each item's score the mean
 * over its repeats, one sign test per scorer. "Significantly worse" is what a CI gate
 * fails on.
 */
import type { ExperimentReport } from './experiment-types';
import { pairedTest, verdictText, type PairedTest } from './stats';

export interface ExperimentDiffRow {
  scorer: string;
  items: number;
  aMean: number;
  bMean: number;
  test: PairedTest;
  text: string;
  /** item ids whose mean went down / up */
  worse: string[];
  better: string[];
}

export interface ExperimentDiff {
  a: { experimentId: string; variant: string; datasetVersion: string };
  b: { experimentId: string; variant: string; datasetVersion: string };
  rows: ExperimentDiffRow[];
}

export class ExperimentDiffError extends Error {}

export function diffExperiments(
  a: ExperimentReport,
  b: ExperimentReport,
  options: { variantA?: string; variantB?: string; scorer?: string } = {},
): ExperimentDiff {
  const va = variantIndex(a, options.variantA);
  const vb = variantIndex(b, options.variantB);
  const scorers = a.scorers.filter((s) => b.scorers.includes(s));
  if (options.scorer !== undefined && !scorers.includes(options.scorer))
    throw new ExperimentDiffError(
      `no scorer "${options.scorer}" in both experiments (they share: ${scorers.join(', ') || 'none'})`,
    );
  const chosen = options.scorer !== undefined ? [options.scorer] : scorers;
  const bIndex = new Map(b.dataset.items.map((item, i) => [item.id, i]));
  const rows = chosen.map((scorer): ExperimentDiffRow => {
    const ids: string[] = [];
    const left: number[] = [];
    const right: number[] = [];
    for (const [i, item] of a.dataset.items.entries()) {
      const j = bIndex.get(item.id);
      const ca = a.cells[i]?.[va];
      const cb = j === undefined ? undefined : b.cells[j]?.[vb];
      if (!ca || !cb || ca.runs.length !== a.repeats || cb.runs.length !== b.repeats) continue;
      ids.push(item.id);
      left.push(ca.means[scorer] ?? 0);
      right.push(cb.means[scorer] ?? 0);
    }
    const test = pairedTest(left, right);
    const sum = (values: number[]) => values.reduce((s, v) => s + v, 0);
    return {
      scorer,
      items: ids.length,
      aMean: ids.length ? sum(left) / ids.length : 0,
      bMean: ids.length ? sum(right) / ids.length : 0,
      test,
      text: verdictText(test),
      worse: ids.filter((_, i) => (right[i] ?? 0) < (left[i] ?? 0) - 1e-9),
      better: ids.filter((_, i) => (right[i] ?? 0) > (left[i] ?? 0) + 1e-9),
    };
  });
  const side = (report: ExperimentReport, index: number) => ({
    experimentId: report.experimentId,
    variant: report.variants[index]?.variant.name ?? '',
    datasetVersion: report.dataset.version,
  });
  return { a: side(a, va), b: side(b, vb), rows };
}

function variantIndex(report: ExperimentReport, name: string | undefined): number {
  if (name === undefined) return 0;
  const index = report.variants.findIndex((v) => v.variant.name === name);
  if (index < 0)
    throw new ExperimentDiffError(
      `no variant "${name}" in ${report.experimentId} (variants: ${report.variants.map((v) => v.variant.name).join(', ')})`,
    );
  return index;
}
