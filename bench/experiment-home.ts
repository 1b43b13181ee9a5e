/**
 * An experiment of the bench's histories (experiment.bench.ts) written to a
 * WORKBENCH_HOME as the runtime leaves it: the run logs, the batch's plan and state, the
 * experiment's record and, when asked, its facts file (the runs' facts the experiment
 * service stores as each run ends). Used by experiment-ui.bench.ts and the facts tests.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BatchPlan, BatchState } from '../src-shared/domain/batch';
import type { ExperimentRecord } from '../src-shared/experiments/experiment-types';
import { runFactsOf } from '../src-shared/experiments/experiment-report';
import { writeFacts } from '../src-main/runtime/experiments/experiment-facts';
import { histories, record } from './experiment.bench';

/** An experiment of `items` x 2 variants x `repeats`, as the runtime leaves it on disk. */
export function writeExperiment(
  home: string,
  id: string,
  items: number,
  repeats: number,
  options: { facts?: boolean } = {},
): number {
  const runs = histories(items, repeats).map((r) => {
    // run ids unique across the experiments of this home
    const runId = `${id}-${r.events[0]!.runId}`;
    return { ...r, runId, events: r.events.map((e) => ({ ...e, runId })) };
  });
  mkdirSync(join(home, 'runs'), { recursive: true });
  for (const run of runs)
    writeFileSync(
      join(home, 'runs', `${run.runId}.jsonl`),
      `${run.events.map((e) => JSON.stringify(e)).join('\n')}\n`,
    );
  const base = record(items, repeats);
  const batchId = `b-${id}`;
  const plan: BatchPlan = {
    version: 1,
    batchId,
    createdAt: Date.now(),
    agent: 'swe',
    tasks: base.dataset.items.map((i) => ({ task: i.task })),
    profiles: ['a', 'b'],
    repeat: repeats,
    concurrency: 4,
    items: runs.map((r) => ({
      key: `t${r.at.itemIndex}-p${r.at.variantIndex}-r${r.at.repeat}`,
      taskIndex: r.at.itemIndex,
      profileIndex: r.at.variantIndex,
      repeat: r.at.repeat,
    })),
  };
  const state: BatchState = {
    version: 1,
    batchId,
    items: Object.fromEntries(
      runs.map((r) => [
        `t${r.at.itemIndex}-p${r.at.variantIndex}-r${r.at.repeat}`,
        { status: 'done' as const, runId: r.runId },
      ]),
    ),
    isComplete: true,
    updatedAt: Date.now(),
  };
  mkdirSync(join(home, 'batches', batchId), { recursive: true });
  writeFileSync(join(home, 'batches', batchId, 'plan.json'), JSON.stringify(plan));
  writeFileSync(join(home, 'batches', batchId, 'state.json'), JSON.stringify(state));
  const experiment: ExperimentRecord = { ...base, experimentId: id, name: id, batchId };
  mkdirSync(join(home, 'experiments'), { recursive: true });
  writeFileSync(join(home, 'experiments', `${id}.json`), JSON.stringify(experiment));
  // what the experiment service stores as each run ends (experiment-facts.ts)
  if (options.facts)
    writeFacts(
      join(home, 'experiments'),
      experiment,
      runs.map((r) => runFactsOf(r.events, r.at)!),
    );
  return runs.length;
}
