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
 *   the batch state, preparing the next run), against the mean time of a run;
 * - a run's start to its sandbox ready p50 / p95 (`run.started` -> `sandbox.changed`
 *   ready): with the batch's warm pool (issue 27, sandbox/warm-pool.ts) and without it
 *   (the baseline, measured at the same concurrency just before), and how many runs took
 *   a spare. Each figure carries the load average at its end.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunEvent } from '../src-shared/events';
import { ScriptedLlm } from '../src-main/runtime/llm/scripted-llm';
import { createRuntime, type Runtime } from '../src-main/runtime/runtime';
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
  const createLlm = () =>
    new ScriptedLlm((request) => {
      const done = request.messages.filter((m) => m.role === 'tool').length;
      return done < 4
        ? { toolCalls: [{ name: 'bash', args: { command: `echo step ${done + 1} >> log.txt` } }] }
        : { toolCalls: [{ name: 'terminate', args: { status: 'success' } }] };
    });
  // Two runtimes on one home: the same engine, image and config, one with the pool.
  const runtimes = {
    without: createRuntime({ home, createLlm, warmPool: false }),
    pool: createRuntime({ home, createLlm }),
  };
  const figures: Figure[] = [];
  const baseline = { without: 0, pool: 0 };
  try {
    for (const concurrency of LEVELS) {
      const ready = { without: [] as number[], pool: [] as number[] };
      for (const mode of ['without', 'pool'] as const) {
        const m = await measure(runtimes[mode], concurrency);
        ready[mode] = m.ready;
        if (concurrency === 1) baseline[mode] = m.perMinute;
        const tag = mode === 'pool' ? ' (pool)' : '';
        figures.push(
          {
            label: `c=${concurrency} throughput${tag}`,
            value: m.perMinute,
            unit: 'runs/min',
            note: `${(m.perMinute / baseline[mode]).toFixed(2)}x concurrency 1; ${(m.wallMs / 1000).toFixed(1)} s wall; ${load()}`,
          },
          {
            label: `c=${concurrency} run start -> sandbox ready p50${tag}`,
            value: percentile(m.ready, 50),
            unit: 'ms',
            note:
              mode === 'pool'
                ? `${m.adopted} of ${RUNS} runs took a spare; without the pool ${percentile(ready.without, 50).toFixed(0)} ms`
                : `container start p50 ${percentile(m.starts, 50).toFixed(0)} ms`,
          },
          {
            label: `c=${concurrency} run start -> sandbox ready p95${tag}`,
            value: percentile(m.ready, 95),
            unit: 'ms',
            note:
              mode === 'pool'
                ? `without the pool ${percentile(ready.without, 95).toFixed(0)} ms`
                : `container start p95 ${percentile(m.starts, 95).toFixed(0)} ms`,
          },
          {
            label: `c=${concurrency} scheduler overhead${tag}`,
            value: m.overhead,
            unit: 'ms/run',
            note: `mean run ${m.meanRun.toFixed(0)} ms; ${((m.overhead / m.meanRun) * 100).toFixed(0)}% of it`,
          },
        );
      }
    }
  } finally {
    await runtimes.without.dispose();
    await runtimes.pool.dispose();
  }
  return report(name, figures);
}

const load = () => `load ${loadavg()[0]?.toFixed(1) ?? '?'}`;

/** One batch of RUNS runs at this concurrency, timed from the runs' own events. */
async function measure(runtime: Runtime, concurrency: number) {
  const events: RunEvent[] = [];
  const unsubscribe = runtime.runs.onEvent((e) => events.push(e));
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
  unsubscribe();
  if (progress.done !== RUNS) throw new Error(`only ${progress.done} of ${RUNS} runs ended`);
  const byRun = new Map<string, RunEvent[]>();
  for (const e of events) byRun.set(e.runId, [...(byRun.get(e.runId) ?? []), e]);
  const starts: number[] = [];
  const ready: number[] = [];
  let runTime = 0;
  let adopted = 0;
  for (const runEvents of byRun.values()) {
    const finished = runEvents.find((e) => e.type === 'run.finished');
    if (
      finished?.type !== 'run.finished' ||
      finished.outcome !== 'finished' ||
      finished.steps !== 5
    )
      throw new Error('a bench run did not finish its 5 steps');
    const started = runEvents.find((e) => e.type === 'run.started');
    if (started?.type === 'run.started' && started.sessionId.includes('-warm-')) adopted++;
    const first = runEvents[0]?.ts ?? finished.ts;
    runTime += finished.ts - first;
    const creating = runEvents.find((e) => e.type === 'sandbox.changed' && e.status === 'creating');
    const isReady = runEvents.find((e) => e.type === 'sandbox.changed' && e.status === 'ready');
    if (creating && isReady) starts.push(isReady.ts - creating.ts);
    if (isReady) ready.push(isReady.ts - first);
  }
  const perMinute = (RUNS / wallMs) * 60_000;
  const overhead = (concurrency * wallMs - runTime) / RUNS;
  return { wallMs, perMinute, starts, ready, adopted, overhead, meanRun: runTime / RUNS };
}
