/**
 * Batch runs (issue 18): 24 runs of a 5-step task (four bash commands in the sandbox,
 * then terminate; the model is scripted and answers at once, so the figures are the
 * workbench's and Docker's, not a model's) at concurrency 1, 2, 4 and 8, on the real
 * Docker engine with the local image. Per concurrency:
 * - throughput (runs per minute), with the speed-up against concurrency 1 (the baseline,
 *   measured in the same run);
 * - container start p50 / p95 (`sandbox.changed` creating -> ready, from the runs' events);
 * - scheduler overhead per run: (concurrency x wall time - the runs' own time) / runs, the
 *   time a slot spends between runs (closing the session, removing its container, saving
 *   the batch state, preparing the next run), against the mean time of a run.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunEvent } from '../src-shared/events';
import { ScriptedLlm } from '../src-main/runtime/llm/scripted-llm';
import { createRuntime } from '../src-main/runtime/runtime';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../src-main/runtime/sandbox/testing/docker-env';
import { report, type BenchResult, type Figure } from './report';

const RUNS = 24;
const LEVELS = [1, 2, 4, 8];

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export async function batchBench(): Promise<BenchResult> {
  const name = `batch: ${RUNS} runs of a 5-step sandbox task at concurrency ${LEVELS.join(', ')}`;
  const docker = await probeDocker().catch((error: unknown) => ({
    available: false,
    reason: (error as Error).message,
  }));
  if (!docker.available) {
    console.log(`\n## ${name}\n  skipped: ${docker.reason}`);
    return { name, figures: [] };
  }
  const home = mkdtempSync(join(tmpdir(), 'wb-bench-batch-'));
  writeFileSync(
    join(home, 'config.toml'),
    [
      '[llm]',
      'model = "bench"',
      'api_key = "sk-bench-batch-000000"',
      '[sandbox]',
      `image = "${LOCAL_SANDBOX_IMAGE}"`,
      `max_containers = ${Math.max(...LEVELS)}`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  const runtime = createRuntime({
    home,
    createLlm: () =>
      new ScriptedLlm((request) => {
        const done = request.messages.filter((m) => m.role === 'tool').length;
        return done < 4
          ? { toolCalls: [{ name: 'bash', args: { command: `echo step ${done + 1} >> log.txt` } }] }
          : { toolCalls: [{ name: 'terminate', args: { status: 'success' } }] };
      }),
  });
  const events: RunEvent[] = [];
  runtime.runs.onEvent((e) => events.push(e));
  const figures: Figure[] = [];
  let baseline = 0;
  try {
    for (const concurrency of LEVELS) {
      events.length = 0;
      const t = performance.now();
      const { done } = runtime.batches.start({
        agent: 'swe',
        tasks: [{ task: 'write five lines' }],
        profiles: [],
        repeat: RUNS,
        concurrency,
      });
      const progress = await done;
      const wallMs = performance.now() - t;
      if (progress.done !== RUNS) throw new Error(`only ${progress.done} of ${RUNS} runs ended`);
      const byRun = new Map<string, RunEvent[]>();
      for (const e of events) byRun.set(e.runId, [...(byRun.get(e.runId) ?? []), e]);
      const starts: number[] = [];
      let runTime = 0;
      for (const runEvents of byRun.values()) {
        const finished = runEvents.find((e) => e.type === 'run.finished');
        if (
          finished?.type !== 'run.finished' ||
          finished.outcome !== 'finished' ||
          finished.steps !== 5
        )
          throw new Error('a bench run did not finish its 5 steps');
        runTime += finished.ts - (runEvents[0]?.ts ?? finished.ts);
        const creating = runEvents.find(
          (e) => e.type === 'sandbox.changed' && e.status === 'creating',
        );
        const ready = runEvents.find((e) => e.type === 'sandbox.changed' && e.status === 'ready');
        if (creating && ready) starts.push(ready.ts - creating.ts);
      }
      const perMinute = (RUNS / wallMs) * 60_000;
      if (concurrency === 1) baseline = perMinute;
      const overhead = (concurrency * wallMs - runTime) / RUNS;
      figures.push(
        {
          label: `c=${concurrency} throughput`,
          value: perMinute,
          unit: 'runs/min',
          note: `${(perMinute / baseline).toFixed(2)}x concurrency 1; ${(wallMs / 1000).toFixed(1)} s wall`,
        },
        {
          label: `c=${concurrency} container start p50`,
          value: percentile(starts, 50),
          unit: 'ms',
        },
        {
          label: `c=${concurrency} container start p95`,
          value: percentile(starts, 95),
          unit: 'ms',
        },
        {
          label: `c=${concurrency} scheduler overhead`,
          value: overhead,
          unit: 'ms/run',
          note: `mean run ${(runTime / RUNS).toFixed(0)} ms; ${((overhead / (runTime / RUNS)) * 100).toFixed(0)}% of it`,
        },
      );
    }
  } finally {
    await runtime.dispose();
  }
  return report(name, figures);
}
