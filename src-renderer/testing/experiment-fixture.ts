/**
 * An experiment's view for renderer tests and the report bench: a record of `items` x 2
 * variants (A, B) x `repeats`, its runs' facts from the functions given, and the report
 * computed by the real computation (src-shared/experiments/experiment-report.ts).
 */
import type { ExperimentView } from '@shared/domain/experiments';
import { experimentReport } from '@shared/experiments/experiment-report';
import type { ExperimentRecord, ExperimentRunFacts } from '@shared/experiments/experiment-types';

type Score = (item: number, variant: number, repeat: number) => number;

export function experimentRecord(items: number, repeats: number, id = 'x-test'): ExperimentRecord {
  return {
    version: 1,
    experimentId: id,
    name: 'prompt v2',
    file: '/home/e.toml',
    createdAt: 1_700_000_000_000,
    dataset: {
      path: '/home/datasets/d.jsonl',
      version: 'sha256:0123456789abcdef',
      items: Array.from({ length: items }, (_, i) => ({ id: `i${i}`, task: `task ${i}` })),
    },
    variants: [
      { name: 'A', agent: 'swe', profile: 'a' },
      { name: 'B', agent: 'swe', profile: 'b' },
    ],
    repeats,
    scorers: [
      { name: 'check', kind: 'shell', command: 'true' },
      { name: 'judge', kind: 'judge', profile: 'j', rubric: 'r' },
    ],
    batchId: 'b-test',
  };
}

export function experimentView(
  items: number,
  repeats: number,
  check: Score,
  judge: Score = () => 0.5,
  id = 'x-test',
): ExperimentView {
  const record = experimentRecord(items, repeats, id);
  const facts: ExperimentRunFacts[] = [];
  for (let i = 0; i < items; i++)
    for (let v = 0; v < 2; v++)
      for (let r = 0; r < repeats; r++)
        facts.push({
          runId: `run-${i}-${v}-${r}`,
          itemIndex: i,
          variantIndex: v,
          repeat: r,
          verdict: 'finished',
          scores: { check: check(i, v, r), judge: judge(i, v, r) },
          trajectory: {
            steps: i + 2,
            tokens: 100 * (v + 1),
            costUsd: null,
            durationMs: 1_000,
            toolErrors: 0,
            stuck: 0,
            duplicates: 0,
          },
        });
  const report = experimentReport(record, facts);
  return {
    summary: {
      experimentId: id,
      name: record.name,
      createdAt: record.createdAt,
      batchId: record.batchId,
      datasetPath: record.dataset.path,
      datasetVersion: record.dataset.version,
      variants: record.variants,
      progress: {
        batchId: record.batchId,
        total: report.total,
        done: report.done,
        running: 0,
        queued: report.total - report.done,
        isStopped: false,
        isComplete: report.done === report.total,
      },
    },
    report,
  };
}
