/**
 * An experiment's report, computed from its record and the facts of its runs (folded
 * from their histories, runFactsOf): per variant each scorer's mean with a 95 % interval,
 * pass@k and pass^k over repeats, the cost, tokens, time and steps distributions; each
 * variant paired against the first over the same items (flips, sign test p-value,
 * "not distinguishable from noise"); the flaky items. Pure and deterministic (the
 * bootstrap is seeded by the experiment, variant and scorer).
 */
import type { RunEvent } from '../events';
import { summarize } from '../run-summary';
import { runVerdict } from '../run-outcome';
import { passes, type ScorerSpec } from './scorer-types';
import { trajectoryFacts } from './run-facts';
import { seedOf } from './seeded-random';
import {
  bootstrapInterval,
  mean,
  pairedTest,
  passAtK,
  passHatK,
  quantile,
  verdictText,
  wilsonInterval,
} from './stats';
import type {
  Distribution,
  ExperimentRecord,
  ExperimentReport,
  ExperimentRunFacts,
  FlakyItem,
  PairedComparison,
  ReportCell,
  ScorerSummary,
  VariantReport,
} from './experiment-types';

/** A run's facts from its history (scores from its score.recorded events). */
export function runFactsOf(
  events: readonly RunEvent[],
  at: { itemIndex: number; variantIndex: number; repeat: number },
): ExperimentRunFacts | undefined {
  const summary = summarize(events);
  if (!summary) return undefined;
  const scores: Record<string, number> = {};
  for (const event of events)
    if (event.type === 'score.recorded') scores[event.scorer] = event.score;
  return {
    runId: summary.runId,
    ...at,
    ...(summary.outcome ? { verdict: runVerdict(summary).kind } : {}),
    scores,
    trajectory: trajectoryFacts(events),
  };
}

export function experimentReport(
  record: ExperimentRecord,
  runs: readonly ExperimentRunFacts[],
  total = record.dataset.items.length * record.variants.length * record.repeats,
): ExperimentReport {
  const items = record.dataset.items;
  const cells: ReportCell[][] = items.map((_, itemIndex) =>
    record.variants.map((_, variantIndex) => ({ itemIndex, variantIndex, runs: [], means: {} })),
  );
  for (const run of runs) {
    cells[run.itemIndex]?.[run.variantIndex]?.runs.push({
      runId: run.runId,
      repeat: run.repeat,
      scores: scoresOf(record.scorers, run),
      ...(run.verdict ? { verdict: run.verdict } : {}),
    });
  }
  for (const cell of cells.flat()) {
    cell.runs.sort((x, y) => x.repeat - y.repeat);
    for (const scorer of record.scorers) {
      const m = mean(cell.runs.map((r) => r.scores[scorer.name] ?? 0));
      if (m !== undefined) cell.means[scorer.name] = m;
    }
  }
  const variants = record.variants.map((variant, variantIndex) =>
    variantReport(
      record,
      variantIndex,
      cells.map((row) => row[variantIndex]!),
      runs,
    ),
  );
  const comparisons: PairedComparison[] = [];
  for (let b = 1; b < record.variants.length; b++)
    for (const scorer of record.scorers) comparisons.push(compare(record, cells, scorer, 0, b));
  return {
    experimentId: record.experimentId,
    name: record.name,
    createdAt: record.createdAt,
    dataset: record.dataset,
    repeats: record.repeats,
    scorers: record.scorers.map((s) => s.name),
    done: runs.length,
    total,
    variants,
    cells,
    comparisons,
    flaky: flakyItems(record, cells),
  };
}

function scoresOf(scorers: readonly ScorerSpec[], run: ExperimentRunFacts): Record<string, number> {
  // a scorer that recorded nothing (the run failed before it was scored) counts 0
  return Object.fromEntries(scorers.map((s) => [s.name, run.scores[s.name] ?? 0]));
}

function variantReport(
  record: ExperimentRecord,
  variantIndex: number,
  column: ReportCell[],
  runs: readonly ExperimentRunFacts[],
): VariantReport {
  const own = runs.filter((r) => r.variantIndex === variantIndex);
  const variant = record.variants[variantIndex]!;
  const scorers = record.scorers.map((spec): ScorerSummary => {
    const values = own.map((r) => r.scores[spec.name] ?? 0);
    const passCount = values.filter((v) => passes(spec, v)).length;
    const isBinary = values.every((v) => v === 0 || v === 1);
    const interval = isBinary
      ? wilsonInterval(passCount, values.length)
      : bootstrapInterval(values, seedOf(`${record.experimentId}/${variant.name}/${spec.name}`));
    const complete = column.filter((cell) => cell.runs.length === record.repeats);
    const atK = (estimator: typeof passAtK) =>
      complete.length === 0
        ? []
        : Array.from({ length: record.repeats }, (_, i) => {
            const k = i + 1;
            const perItem = complete.map((cell) =>
              estimator(
                cell.runs.length,
                cell.runs.filter((r) => passes(spec, r.scores[spec.name] ?? 0)).length,
                k,
              ),
            );
            return { k, value: mean(perItem) ?? 0 };
          });
    return {
      scorer: spec.name,
      n: values.length,
      mean: mean(values) ?? 0,
      ...(interval ? { interval } : {}),
      method: isBinary ? 'wilson' : 'bootstrap',
      passes: passCount,
      passAtK: atK(passAtK),
      passHatK: atK(passHatK),
    };
  });
  const costs = own.map((r) => r.trajectory.costUsd);
  return {
    variant,
    runs: own.length,
    scorers,
    costUsd: costs.some((c) => c === null) ? null : distribution(costs as number[]),
    tokens: distribution(own.map((r) => r.trajectory.tokens)),
    durationMs: distribution(own.map((r) => r.trajectory.durationMs)),
    steps: distribution(own.map((r) => r.trajectory.steps)),
  };
}

export function distribution(values: readonly number[]): Distribution | null {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  return {
    n: sorted.length,
    mean: mean(values) ?? 0,
    min: sorted[0] ?? 0,
    p50: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    max: sorted[sorted.length - 1] ?? 0,
  };
}

function compare(
  record: ExperimentRecord,
  cells: ReportCell[][],
  spec: ScorerSpec,
  a: number,
  b: number,
): PairedComparison {
  const pairs = cells.filter(
    (row) => row[a]?.runs.length === record.repeats && row[b]?.runs.length === record.repeats,
  );
  const aMeans = pairs.map((row) => row[a]!.means[spec.name] ?? 0);
  const bMeans = pairs.map((row) => row[b]!.means[spec.name] ?? 0);
  const test = pairedTest(aMeans, bMeans);
  const flipped = pairs.flatMap((row, i) => {
    const left = aMeans[i] ?? 0;
    const right = bMeans[i] ?? 0;
    if (passes(spec, left) === passes(spec, right)) return [];
    const itemIndex = row[a]!.itemIndex;
    const aRunId = row[a]!.runs[0]?.runId;
    const bRunId = row[b]!.runs[0]?.runId;
    return [
      {
        itemIndex,
        itemId: record.dataset.items[itemIndex]?.id ?? String(itemIndex),
        a: left,
        b: right,
        ...(aRunId ? { aRunId } : {}),
        ...(bRunId ? { bRunId } : {}),
      },
    ];
  });
  return { scorer: spec.name, a, b, items: pairs.length, test, text: verdictText(test), flipped };
}

/** Items whose repeats disagree (some pass, some fail) on a scorer, per variant. */
function flakyItems(record: ExperimentRecord, cells: ReportCell[][]): FlakyItem[] {
  const flaky: FlakyItem[] = [];
  for (const row of cells)
    for (const cell of row)
      for (const spec of record.scorers) {
        const passed = cell.runs.filter((r) => passes(spec, r.scores[spec.name] ?? 0)).length;
        if (passed > 0 && passed < cell.runs.length)
          flaky.push({
            itemIndex: cell.itemIndex,
            itemId: record.dataset.items[cell.itemIndex]?.id ?? String(cell.itemIndex),
            variantIndex: cell.variantIndex,
            scorer: spec.name,
            passes: passed,
            runs: cell.runs.length,
          });
      }
  return flaky;
}
