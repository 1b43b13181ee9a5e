/**
 * An experiment's report and diff as text (`workbench experiment show|run|diff`): per
 * variant each scorer's mean with its 95 % interval and pass@k / pass^k, the figures'
 * distributions, each variant against the first, the flaky items.
 */
import type { Distribution, ExperimentReport } from '@shared/experiments/experiment-types';
import type { ExperimentDiff } from '@shared/experiments/experiment-diff';

const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
const num = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));

export function formatExperimentReport(report: ExperimentReport): string {
  const lines: string[] = [
    `experiment ${report.experimentId} "${report.name}"`,
    `dataset ${report.dataset.path} (${report.dataset.version}, ${report.dataset.items.length} items) x ${report.variants.length} variants x ${report.repeats} repeats: ${report.done}/${report.total} runs ended`,
  ];
  for (const v of report.variants) {
    const profile = v.variant.profile ?? "agent's own profile";
    lines.push('', `${v.variant.name}: ${v.variant.agent} on ${profile} (${v.runs} runs)`);
    for (const s of v.scorers) {
      const interval = s.interval ? ` [${pct(s.interval.low)}, ${pct(s.interval.high)}]` : '';
      const atK = s.passAtK.map((p) => `pass@${p.k} ${pct(p.value)}`).join(', ');
      const hatK = s.passHatK.map((p) => `pass^${p.k} ${pct(p.value)}`).join(', ');
      lines.push(
        `  ${s.scorer}: mean ${pct(s.mean)}${interval} (95 %, ${s.method}); ${s.passes}/${s.n} pass${atK ? `; ${atK}; ${hatK}` : ''}`,
      );
    }
    lines.push(
      `  steps ${dist(v.steps)}; tokens ${dist(v.tokens)}; time ${dist(v.durationMs, 'ms')}`,
    );
    lines.push(
      `  cost ${v.costUsd ? dist(v.costUsd, 'USD') : 'unknown (a model without a price)'}`,
    );
  }
  for (const c of report.comparisons) {
    const a = report.variants[c.a]?.variant.name;
    const b = report.variants[c.b]?.variant.name;
    lines.push(
      '',
      `${b} vs ${a} on ${c.scorer} (${c.items} items): ${c.test.better} better, ${c.test.worse} worse, ${c.test.ties} same; ${c.text}`,
    );
    for (const f of c.flipped)
      lines.push(
        `  flipped ${f.itemId}: ${pct(f.a)} -> ${pct(f.b)} (workbench runs diff ${f.aRunId ?? '?'} ${f.bRunId ?? '?'})`,
      );
  }
  if (report.flaky.length > 0) {
    lines.push('', 'flaky items (repeats disagree):');
    for (const f of report.flaky)
      lines.push(
        `  ${f.itemId} ${report.variants[f.variantIndex]?.variant.name} ${f.scorer}: ${f.passes}/${f.runs} pass`,
      );
  }
  return lines.join('\n');
}

function dist(d: Distribution | null, unit = ''): string {
  if (!d) return '—';
  const u = unit ? ` ${unit}` : '';
  return `mean ${num(d.mean)}${u}, p50 ${num(d.p50)}, p90 ${num(d.p90)}, min ${num(d.min)}, max ${num(d.max)}`;
}

export function formatExperimentDiff(diff: ExperimentDiff): string {
  const lines = [
    `A ${diff.a.experimentId} (${diff.a.variant}, dataset ${diff.a.datasetVersion})`,
    `B ${diff.b.experimentId} (${diff.b.variant}, dataset ${diff.b.datasetVersion})`,
  ];
  if (diff.a.datasetVersion !== diff.b.datasetVersion)
    lines.push('note: the dataset versions differ; items are paired by id');
  for (const row of diff.rows) {
    lines.push(
      `${row.scorer}: ${pct(row.aMean)} -> ${pct(row.bMean)} over ${row.items} items; ${row.test.better} better, ${row.test.worse} worse; ${row.text}`,
    );
    if (row.worse.length > 0) lines.push(`  worse: ${row.worse.join(', ')}`);
    if (row.better.length > 0) lines.push(`  better: ${row.better.join(', ')}`);
  }
  return lines.join('\n');
}
