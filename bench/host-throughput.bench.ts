/**
 * Run events from the runtime to a connected client's store over the WebSocket
 * transport of `workbench serve`: the real RunManager (stamping, secret check, JSONL
 * history on disk), the real host (frame batching, one JSON serialization per push),
 * the UI's own WebSocket adapter and Zustand store.
 *
 * 1. Throughput: a run emits 100,000 events as fast as it can; events per second until
 *    the client's store holds the last one. Baseline in the same run: the same events
 *    applied to the same store in-process, with the same frame batching and no
 *    transport (what the transport costs on top).
 * 2. Push latency at 1,000 events per second for 5 s: time from emission to the
 *    client's listener, p50 and p95. Baseline in the same run: the in-process path.
 *
 * Client and server share this process's event loop (the renderer is another process
 * in the app), so the figures include the work of both sides on one core.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { RunEvent, RunEventPayload } from '../src-shared/events';
import { PushBatcher } from '../src-main/host/push-batcher';
import { startWsHost } from '../src-main/host/ws/ws-host';
import type { RunFactory } from '../src-main/runtime/runs/run-manager';
import { createRuntime, type Runtime } from '../src-main/runtime/runtime';
import { createWsApi } from '../src-renderer/api/ws-api';
import { createWorkbenchStore } from '../src-renderer/store/store';
import { report, type BenchResult } from './report';

const THROUGHPUT_EVENTS = 100_000;
const LATENCY_RATE = 1_000;
const LATENCY_SECONDS = 5;

/** What a streaming model produces most: small deltas, with the time they left in `text`. */
function delta(step: number): RunEventPayload {
  return { type: 'llm.delta', agent: 'bench', step, text: String(performance.now()) };
}

type Emitter = (emit: (e: RunEventPayload) => void) => Promise<void>;

async function flood(emit: (e: RunEventPayload) => void): Promise<void> {
  for (let i = 0; i < THROUGHPUT_EVENTS; i++) {
    emit(delta(1 + Math.floor(i / 100)));
    // let the transport run, as a real agent awaiting its model would
    if (i % 500 === 499) await new Promise((r) => setImmediate(r));
  }
}

async function paced(emit: (e: RunEventPayload) => void): Promise<void> {
  const total = LATENCY_RATE * LATENCY_SECONDS;
  const started = performance.now();
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) * LATENCY_RATE) / 1000));
    for (; sent < due; sent++) emit(delta(1 + Math.floor(sent / 100)));
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** A run whose "agent" is the emitter: run.started, its events, run.finished. */
function factoryFor(emitter: Emitter): RunFactory {
  return async (input, context) => ({
    agentName: input.agent,
    model: 'bench',
    maxSteps: 1,
    async execute() {
      await emitter(context.emit);
      return {
        outcome: 'finished',
        state: 'FINISHED',
        steps: 1,
        usage: { prompt: 0, completion: 0 },
        stepResults: [],
      };
    },
  });
}

function runtimeFor(emitter: Emitter): Runtime {
  return createRuntime({
    home: mkdtempSync(join(tmpdir(), 'wb-bench-')),
    factory: factoryFor(emitter),
  });
}

interface Measured {
  seconds: number;
  events: number;
  latencies: number[];
}

/** Over the WebSocket: the UI's adapter and store in a client of the real host. */
async function overWebSocket(emitter: Emitter): Promise<Measured> {
  const runtime = runtimeFor(emitter);
  const host = await startWsHost({
    runtime,
    context: { dockerProbe: async () => ({ isAvailable: false }) },
  });
  const api = createWsApi(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, WebSocket as never);
  const store = createWorkbenchStore();
  const latencies: number[] = [];
  let received = 0;
  let finished: () => void = () => {};
  const done = new Promise<void>((resolve) => (finished = resolve));
  api.onRunEvents((batch) => {
    const now = performance.now();
    for (const e of batch) if (e.type === 'llm.delta') latencies.push(now - Number(e.text));
    received += batch.length;
    store.getState().applyEvents(batch);
    if (batch.some((e) => e.type === 'run.finished')) finished();
  });
  await api.listRuns({}); // connected
  const started = performance.now();
  const { runId } = await api.startRun({ task: 'bench', agent: 'toolcall' });
  await done;
  const seconds = (performance.now() - started) / 1000;
  const held = store.getState().runs[runId]?.lastSeq ?? 0;
  if (held !== received) throw new Error(`the store holds ${held} of ${received} events`);
  api.close();
  await host.close();
  await runtime.dispose();
  return { seconds, events: received, latencies };
}

/** Baseline: the same runtime and store, batched the same way, with no transport. */
async function inProcess(emitter: Emitter): Promise<Measured> {
  const runtime = runtimeFor(emitter);
  const store = createWorkbenchStore();
  const latencies: number[] = [];
  let received = 0;
  let finished: () => void = () => {};
  const done = new Promise<void>((resolve) => (finished = resolve));
  const batcher = new PushBatcher((batch: RunEvent[]) => {
    const now = performance.now();
    for (const e of batch) if (e.type === 'llm.delta') latencies.push(now - Number(e.text));
    received += batch.length;
    store.getState().applyEvents(batch);
    if (batch.some((e) => e.type === 'run.finished')) finished();
  });
  runtime.runs.onEvent((e) => batcher.push(e));
  const started = performance.now();
  runtime.runs.start({ task: 'bench', agent: 'toolcall' });
  await done;
  const seconds = (performance.now() - started) / 1000;
  batcher.dispose();
  await runtime.dispose();
  return { seconds, events: received, latencies };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Median of three, alternating the paths, so one noisy moment on a shared machine does not decide. */
async function median3(measure: () => Promise<Measured>, key: (m: Measured) => number) {
  const runs: Measured[] = [];
  for (let i = 0; i < 3; i++) runs.push(await measure());
  return runs.sort((a, b) => key(a) - key(b))[1] as Measured;
}

export async function hostThroughputBench(): Promise<BenchResult> {
  await overWebSocket(async (emit) => {
    for (let i = 0; i < 5_000; i++) emit(delta(1));
  }); // warm up the JIT and the socket code
  const rate = (m: Measured) => m.events / m.seconds;
  const wsFlood = await median3(() => overWebSocket(flood), rate);
  const baseFlood = await median3(() => inProcess(flood), rate);
  const p50 = (m: Measured) => percentile(m.latencies, 50);
  const wsPaced = await median3(() => overWebSocket(paced), p50);
  const basePaced = await median3(() => inProcess(paced), p50);
  const wsRate = rate(wsFlood);
  const baseRate = rate(baseFlood);
  const figures = [
    {
      label: 'throughput over WebSocket',
      value: wsRate,
      unit: 'events/s',
      note: `median of 3 runs of ${wsFlood.events} events; ${(wsRate / baseRate).toFixed(2)}× the in-process rate`,
    },
    { label: 'throughput in-process (baseline)', value: baseRate, unit: 'events/s' },
  ];
  for (const p of [50, 95]) {
    const ws = percentile(wsPaced.latencies, p);
    const base = percentile(basePaced.latencies, p);
    figures.push(
      {
        label: `push latency p${p} at ${LATENCY_RATE}/s over WebSocket`,
        value: ws,
        unit: 'ms',
        note: `${(ws / base).toFixed(2)}× the in-process p${p}; ${wsPaced.latencies.length} events`,
      },
      {
        label: `push latency p${p} at ${LATENCY_RATE}/s in-process (baseline)`,
        value: base,
        unit: 'ms',
      },
    );
  }
  return report('run events from the runtime to a client store (workbench serve)', figures);
}
