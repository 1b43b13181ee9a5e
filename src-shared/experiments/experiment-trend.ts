/**
 * The regression view's data (issue 31): the experiments of one dataset over time, one
 * chart per scorer and a line per variant name, each point a variant's mean (with its
 * interval) from that experiment's report. A point whose agent, profile or dataset
 * version differs from the line's previous point is where something changed: the chart
 * marks it. Pure: the host passes the reports it computed the usual way.
 */
import type { ExperimentTrendView, TrendPoint } from '../domain/experiments';
import type { ExperimentReport } from './experiment-types';

export function experimentTrend(
  datasetPath: string,
  reports: readonly ExperimentReport[],
): ExperimentTrendView {
  const sorted = [...reports]
    .filter((r) => r.dataset.path === datasetPath)
    .sort((a, b) => a.createdAt - b.createdAt || a.experimentId.localeCompare(b.experimentId));
  const scorers: ExperimentTrendView['scorers'] = [];
  const lineOf = (scorer: string, variant: string): TrendPoint[] => {
    let chart = scorers.find((s) => s.scorer === scorer);
    if (!chart) scorers.push((chart = { scorer, lines: [] }));
    let line = chart.lines.find((l) => l.variant === variant);
    if (!line) chart.lines.push((line = { variant, points: [] }));
    return line.points;
  };
  for (const report of sorted)
    for (const variant of report.variants)
      for (const summary of variant.scorers) {
        if (summary.n === 0) continue;
        lineOf(summary.scorer, variant.variant.name).push({
          experimentId: report.experimentId,
          createdAt: report.createdAt,
          datasetVersion: report.dataset.version,
          agent: variant.variant.agent,
          profile: variant.variant.profile,
          mean: summary.mean,
          ...(summary.interval ? { interval: summary.interval } : {}),
          n: summary.n,
        });
      }
  return {
    datasetPath,
    experiments: sorted.map((r) => ({
      experimentId: r.experimentId,
      name: r.name,
      createdAt: r.createdAt,
      datasetVersion: r.dataset.version,
    })),
    scorers,
  };
}

/** What changed at a point since the line's previous one (empty: nothing). */
export function changesAt(points: readonly TrendPoint[], index: number): string[] {
  const point = points[index];
  const before = points[index - 1];
  if (!point || !before) return [];
  const changes: string[] = [];
  if (point.agent !== before.agent) changes.push(`agent ${before.agent} → ${point.agent}`);
  if (point.profile !== before.profile)
    changes.push(`profile ${before.profile ?? 'own'} → ${point.profile ?? 'own'}`);
  if (point.datasetVersion !== before.datasetVersion)
    changes.push(`dataset ${before.datasetVersion} → ${point.datasetVersion}`);
  return changes;
}
