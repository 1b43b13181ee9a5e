/**
 * An experiment's report (`npm run bench -- experiment`, issue 31): 1,000 runs (250
 * items x 2 variants x 2 repeats), each a 10-step history as the runtime writes it with
 * three score.recorded events (a pass/fail check, an answer, a continuous judge score).
 * Measured: folding the histories into the runs' facts, and computing the report from
 * them (intervals with a 2,000-resample bootstrap per variant and continuous scorer,
 * pass@k, the paired tests, flaky items). Median of 5. Target: the report < 300 ms.
 * Baseline in the same run: 100 runs. The rendered report (< 1 s) is measured by
 * experiment-ui.bench.ts (`npm run bench -- experiment-ui`).
 */
import type { RunEvent } from '../src-shared/events';
import type { ExperimentRecord } from '../src-shared/experiments/experiment-types';
import { experimentReport, runFactsOf } from '../src-shared/experiments/experiment-report';
import { longRun } from '../src-renderer/testing/run-script';
import { report, type BenchResult, type Figure } from './report';

export function histories(items: number, repeats: number) {
  const runs: {
    events: RunEvent[];
    at: { itemIndex: number; variantIndex: number; repeat: number };
  }[] = [];
  for (let i = 0; i < items; i++)
    for (let v = 0; v < 2; v++)
      for (let r = 0; r < repeats; r++) {
        const runId = `run-${i}-${v}-${r}`;
        const events = longRun(runId, 10);
        const last = events.pop()!;
        let seq = last.seq;
        const score = (
          scorer: string,
          kind: 'shell' | 'answer' | 'judge',
          value: number,
        ): RunEvent => ({
          v: 1,
          runId,
          seq: seq++,
          ts: last.ts,
          type: 'score.recorded',
          scorer,
          kind,
          score: value,
          passed: value >= 0.5,
          explanation: '',
          durationMs: 1,
        });
        events.push(
          score('check', 'shell', (i + v + r) % 3 === 0 ? 0 : 1),
          score('answer', 'answer', (i * 7 + v) % 4 === 0 ? 0 : 1),
          score('judge', 'judge', ((i * 13 + v * 3 + r) % 10) / 10),
          { ...last, seq },
        );
        runs.push({ events, at: { itemIndex: i, variantIndex: v, repeat: r } });
      }
  return runs;
}

export function record(items: number, repeats: number): ExperimentRecord {
  return {
    version: 1,
    experimentId: 'x-bench',
    name: 'bench',
    file: 'e.toml',
    createdAt: 0,
    dataset: {
      path: 'd.jsonl',
      version: 'sha256:0',
      items: Array.from({ length: items }, (_, i) => ({ id: `i${i}`, task: `t${i}` })),
    },
    variants: [
      { name: 'A', agent: 'swe', profile: 'a' },
      { name: 'B', agent: 'swe', profile: 'b' },
    ],
    repeats,
    scorers: [
      { name: 'check', kind: 'shell', command: 'true' },
      { name: 'answer', kind: 'answer', match: 'exact' },
      { name: 'judge', kind: 'judge', profile: 'j', rubric: 'r' },
    ],
    batchId: 'b-bench',
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function measure(items: number, repeats: number) {
  const runs = histories(items, repeats);
  const rec = record(items, repeats);
  const fold: number[] = [];
  const compute: number[] = [];
  for (let i = 0; i < 5; i++) {
    let started = performance.now();
    const facts = runs.flatMap((r) => runFactsOf(r.events, r.at) ?? []);
    fold.push(performance.now() - started);
    started = performance.now();
    experimentReport(rec, facts);
    compute.push(performance.now() - started);
  }
  return { runs: runs.length, fold: median(fold), compute: median(compute) };
}

export async function experimentBench(): Promise<BenchResult> {
  const base = measure(25, 2);
  const full = measure(250, 2);
  const figures: Figure[] = [
    {
      label: `fold ${full.runs} histories into facts`,
      value: full.fold,
      unit: 'ms',
      note: `${base.runs} runs: ${base.fold.toFixed(1)} ms`,
    },
    {
      label: `compute the report of ${full.runs} runs`,
      value: full.compute,
      unit: 'ms',
      note: `target < 300 ms; ${base.runs} runs: ${base.compute.toFixed(1)} ms`,
    },
  ];
  return Promise.resolve(report('experiment report', figures));
}
