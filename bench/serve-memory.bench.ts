/**
 * `workbench serve` memory over many runs (issue 27: +0.11 MiB a run, never released).
 * The real runtime behind the real WebSocket host, a client connected as the browser is
 * (the renderer's own WebSocket adapter, receiving every push), runs of the toolcall
 * agent one after another on an `api_type = "scripted"` scenario without pauses (the
 * built-in demo's own replies; no Docker). Memory is read after a full garbage
 * collection: after a warm-up (code compiled, caches filled), then after
 * WORKBENCH_BENCH_SERVE_RUNS more runs (default 1,000). The baseline is the process
 * after the warm-up; the goal is < 2 MiB of growth over 1,000 runs.
 *
 * What stays by design: each run's summary in the run list (RunStore's index, about
 * 0.35 KiB a run), which is why heap growth per run is not zero.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import WebSocket from 'ws';
import { startWsHost } from '../src-main/host/ws/ws-host';
import { createRuntime } from '../src-main/runtime/runtime';
import { createWsApi } from '../src-renderer/api/ws-api';
import { report, type BenchResult } from './report';

const WARM_UP_RUNS = 100;
const MIB = 1024 * 1024;

function fullGc(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
}

function memory() {
  fullGc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed / MIB, rss: m.rss / MIB, external: m.external / MIB };
}

const load = () => loadavg()[0]!.toFixed(2);

export async function serveMemoryBench(): Promise<BenchResult> {
  const runs = Number(process.env['WORKBENCH_BENCH_SERVE_RUNS'] ?? 1_000);
  const home = mkdtempSync(join(tmpdir(), 'wb-bench-serve-'));
  const scenario = JSON.parse(readFileSync('resources/demo/toolcall.json', 'utf8')) as {
    scenarios: { turns: { delayMs?: number }[] }[];
  };
  for (const s of scenario.scenarios) for (const turn of s.turns) delete turn.delayMs;
  writeFileSync(join(home, 'fast.json'), JSON.stringify(scenario));
  writeFileSync(
    join(home, 'config.toml'),
    '[llm]\nmodel = "fast"\napi_type = "scripted"\nscenario = "fast.json"\n',
  );
  const runtime = createRuntime({ home, env: { PATH: process.env['PATH'] }, sweepAtStart: false });
  const host = await startWsHost({
    runtime,
    context: { dockerProbe: async () => ({ isAvailable: false, error: 'not probed' }) },
  });
  const api = createWsApi(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, WebSocket as never);
  let finished = 0;
  let onFinished: () => void = () => {};
  api.onRunEvents((batch) => {
    for (const event of batch) {
      if (event.type === 'run.finished') {
        finished++;
        onFinished();
      }
    }
  });
  await api.listRuns({});
  const runMany = async (count: number) => {
    for (let i = 0; i < count; i++) {
      const target = finished + 1;
      const done = new Promise<void>((resolve) => {
        onFinished = () => finished >= target && resolve();
      });
      await api.startRun({ task: `bench ${i}`, agent: 'toolcall' });
      await done;
    }
    // the digests stored a second after a run finished (host/contract.ts) are written
    await new Promise((r) => setTimeout(r, 1_500));
  };

  const loadAtStart = load();
  await runMany(WARM_UP_RUNS);
  const warm = memory();
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  await runMany(runs);
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuStarted);
  const after = memory();
  const loadAtEnd = load();
  api.close();
  await host.close();
  await runtime.dispose();

  const perRun = (a: number, b: number) => ((b - a) * 1024) / runs;
  return report(`workbench serve memory over ${runs} runs (load ${loadAtStart} → ${loadAtEnd})`, [
    {
      label: `heap after ${WARM_UP_RUNS} warm-up runs (baseline)`,
      value: warm.heap,
      unit: 'MiB',
    },
    { label: `RSS after ${WARM_UP_RUNS} warm-up runs (baseline)`, value: warm.rss, unit: 'MiB' },
    {
      label: `heap after ${runs} more runs`,
      value: after.heap,
      unit: 'MiB',
      note: `+${(after.heap - warm.heap).toFixed(2)} MiB, ${perRun(warm.heap, after.heap).toFixed(2)} KiB a run`,
    },
    {
      label: `RSS after ${runs} more runs`,
      value: after.rss,
      unit: 'MiB',
      note: `${after.rss >= warm.rss ? '+' : ''}${(after.rss - warm.rss).toFixed(2)} MiB, ${perRun(warm.rss, after.rss).toFixed(2)} KiB a run; goal < 2 MiB over 1,000 runs`,
    },
    {
      label: 'wall time a run',
      value: wallMs / runs,
      unit: 'ms',
      note: `CPU ${((cpu.user + cpu.system) / 1000 / runs).toFixed(1)} ms a run (host and client in one process)`,
    },
  ]);
}
