import { describe, expect, it } from 'vitest';
import type { ExperimentReport, VariantReport } from './experiment-types';
import { changesAt, experimentTrend } from './experiment-trend';

function variant(name: string, agent: string, mean: number, n = 4): VariantReport {
  return {
    variant: { name, agent, profile: null },
    runs: n,
    scorers: [
      {
        scorer: 'check',
        n,
        mean,
        interval: { low: mean / 2, high: 1 },
        method: 'wilson',
        passes: 0,
        passAtK: [],
        passHatK: [],
      },
    ],
    costUsd: null,
    tokens: null,
    durationMs: null,
    steps: null,
  };
}

function report(
  id: string,
  createdAt: number,
  version: string,
  variants: VariantReport[],
  path = '/d.jsonl',
): ExperimentReport {
  return {
    experimentId: id,
    name: id,
    createdAt,
    dataset: { path, version, items: [] },
    repeats: 1,
    scorers: ['check'],
    done: 0,
    total: 0,
    variants,
    cells: [],
    comparisons: [],
    flaky: [],
  };
}

describe('the regression trend of a dataset', () => {
  it('orders experiments by time, a line per variant name per scorer, and says what changed', () => {
    const trend = experimentTrend('/d.jsonl', [
      report('x-3', 300, 'sha256:b', [variant('A', 'swe@2', 0.9), variant('B', 'swe', 0.5)]),
      report('x-1', 100, 'sha256:a', [variant('A', 'swe@1', 0.5)]),
      report('x-2', 200, 'sha256:a', [variant('A', 'swe@1', 0.75), variant('B', 'swe', 0, 0)]),
      report('x-other', 150, 'sha256:z', [variant('A', 'swe@1', 1)], '/other.jsonl'),
    ]);
    expect(trend.experiments.map((e) => e.experimentId)).toEqual(['x-1', 'x-2', 'x-3']);
    expect(trend.scorers).toHaveLength(1);
    const [a, b] = trend.scorers[0]!.lines;
    expect(a?.points.map((p) => [p.experimentId, p.mean])).toEqual([
      ['x-1', 0.5],
      ['x-2', 0.75],
      ['x-3', 0.9],
    ]);
    // a variant without scored runs has no point there
    expect(b?.points.map((p) => p.experimentId)).toEqual(['x-3']);
    expect(changesAt(a!.points, 0)).toEqual([]);
    expect(changesAt(a!.points, 1)).toEqual([]);
    expect(changesAt(a!.points, 2)).toEqual(['agent swe@1 → swe@2', 'dataset sha256:a → sha256:b']);
  });
});
