import { describe, expect, it } from 'vitest';
import type { ExperimentRecord, ExperimentRunFacts } from './experiment-types';
import { experimentReport } from './experiment-report';
import { diffExperiments } from './experiment-diff';
import { passAtK, passHatK, wilsonInterval } from './stats';

const trajectory = {
  steps: 2,
  tokens: 10,
  costUsd: null,
  durationMs: 100,
  toolErrors: 0,
  stuck: 0,
  duplicates: 0,
};

function record(items: number, repeats: number, id = 'x-1'): ExperimentRecord {
  return {
    version: 1,
    experimentId: id,
    name: 'e',
    file: 'e.toml',
    createdAt: 0,
    dataset: {
      path: 'd.jsonl',
      version: 'abc',
      items: Array.from({ length: items }, (_, i) => ({ id: `i${i}`, task: `t${i}` })),
    },
    variants: [
      { name: 'A', agent: 'toolcall', profile: 'a' },
      { name: 'B', agent: 'toolcall', profile: 'b' },
    ],
    repeats,
    scorers: [
      { name: 'ok', kind: 'shell', command: 'true' },
      { name: 'judge', kind: 'judge', profile: 'j', rubric: 'r' },
    ],
    batchId: 'b-1',
  };
}

/** score(item, variant, repeat) for `ok`, and a judge score */
function facts(
  rec: ExperimentRecord,
  ok: (i: number, v: number, r: number) => number,
  judge: (i: number, v: number, r: number) => number = () => 0.5,
): ExperimentRunFacts[] {
  const runs: ExperimentRunFacts[] = [];
  for (let i = 0; i < rec.dataset.items.length; i++)
    for (let v = 0; v < 2; v++)
      for (let r = 0; r < rec.repeats; r++)
        runs.push({
          runId: `run-${i}-${v}-${r}`,
          itemIndex: i,
          variantIndex: v,
          repeat: r,
          verdict: 'finished',
          scores: { ok: ok(i, v, r), judge: judge(i, v, r) },
          trajectory: { ...trajectory, steps: i + 1 },
        });
  return runs;
}

describe('experiment report', () => {
  it('means, Wilson intervals, pass@k / pass^k, flips, flaky items and the paired verdict', () => {
    const rec = record(6, 3);
    // A passes items 0-2 always; B passes every item, but item 5 only once in three
    const runs = facts(rec, (i, v, r) =>
      v === 0 ? (i < 3 ? 1 : 0) : i === 5 ? (r === 0 ? 1 : 0) : 1,
    );
    const report = experimentReport(rec, runs);
    expect(report.done).toBe(36);
    const a = report.variants[0]!.scorers[0]!;
    expect(a).toMatchObject({
      n: 18,
      mean: 0.5,
      passes: 9,
      method: 'wilson',
      interval: wilsonInterval(9, 18),
    });
    const b = report.variants[1]!.scorers[0]!;
    expect(b.passes).toBe(16);
    // per item: five items 3/3, item 5 1/3
    expect(b.passAtK).toEqual(
      [1, 2, 3].map((k) => ({ k, value: (5 * passAtK(3, 3, k) + passAtK(3, 1, k)) / 6 })),
    );
    expect(b.passHatK).toEqual(
      [1, 2, 3].map((k) => ({ k, value: (5 * passHatK(3, 3, k) + passHatK(3, 1, k)) / 6 })),
    );
    const ok = report.comparisons.find((c) => c.scorer === 'ok')!;
    // items 3 and 4 flip (0 -> 1); item 5 goes 0 -> 1/3, under the threshold: better, not flipped
    expect(ok.flipped.map((f) => f.itemId)).toEqual(['i3', 'i4']);
    expect(ok.flipped[0]).toMatchObject({ aRunId: 'run-3-0-0', bRunId: 'run-3-1-0' });
    expect(ok.test).toMatchObject({ better: 3, worse: 0, ties: 3, verdict: 'noise' });
    expect(ok.test.p).toBeCloseTo(0.25, 12);
    expect(ok.text).toBe('not distinguishable from noise (p = 0.250)');
    expect(report.flaky).toEqual([
      { itemIndex: 5, itemId: 'i5', variantIndex: 1, scorer: 'ok', passes: 1, runs: 3 },
    ]);
    // the judge's scores are all 0.5: a bootstrap interval of a constant
    expect(report.variants[0]!.scorers[1]).toMatchObject({
      method: 'bootstrap',
      mean: 0.5,
      interval: { low: 0.5, high: 0.5 },
    });
    expect(report.variants[0]!.steps).toMatchObject({ n: 18, mean: 3.5, min: 1, max: 6, p50: 3.5 });
    expect(report.variants[0]!.costUsd).toBeNull();
    // the same input, the same report (the bootstrap is seeded)
    expect(experimentReport(rec, runs)).toEqual(report);
  });

  it('diff: B failing every item A passes is significantly worse; other noise is not', () => {
    const rec = record(6, 3);
    const base = experimentReport(
      rec,
      facts(rec, () => 1),
    );
    const regressed = experimentReport(
      record(6, 3, 'x-2'),
      facts(rec, () => 0),
    );
    const row = diffExperiments(base, regressed, { scorer: 'ok' }).rows[0]!;
    expect(row).toMatchObject({
      items: 6,
      aMean: 1,
      bMean: 0,
      test: { verdict: 'worse', worse: 6 },
    });
    expect(row.test.p).toBeCloseTo(0.03125, 10);
    const noisy = experimentReport(
      record(6, 3, 'x-3'),
      facts(rec, (i, _v, r) => ((i + r) % 3 === 0 ? 0 : 1)),
    );
    const other = experimentReport(
      record(6, 3, 'x-4'),
      facts(rec, (i, _v, r) => ((i + r) % 3 === 1 ? 0 : 1)),
    );
    expect(diffExperiments(noisy, other, { scorer: 'ok' }).rows[0]!.test.verdict).toBe('noise');
    expect(() => diffExperiments(base, regressed, { scorer: 'nope' })).toThrow(/no scorer "nope"/);
  });

  it('computes the report of 1,000 runs in under 300 ms', () => {
    const rec = record(250, 2);
    const runs = facts(
      rec,
      (i, v, r) => ((i * 7 + v + r) % 3 === 0 ? 0 : 1),
      (i, v, r) => ((i * 13 + v * 3 + r) % 10) / 10,
    );
    expect(runs).toHaveLength(1000);
    experimentReport(rec, runs); // warm up the JIT
    const started = performance.now();
    experimentReport(rec, runs);
    expect(performance.now() - started).toBeLessThan(300);
  });
});
