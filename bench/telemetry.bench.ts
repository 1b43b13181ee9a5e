/**
 * What live export (`[telemetry] otlp_endpoint`, docs/telemetry.md) costs the thread that
 * runs the agent loop. The same 400-step run of the toolcall agent (scripted model
 * answering at once, so a step is the loop's own time, history written to disk) with and
 * without live export to a local OTLP receiver, alternated, best of 3 each.
 *
 * The figure the target is about is timed directly: every call of live export's
 * code on the run's thread (export-client.ts: the listener keeping each event's line, the
 * timer handing a batch to the export thread, the counts coming back) is wrapped with a
 * clock, and its total per step is set against the bare loop step measured in this same
 * run (wall clocks on a loaded machine count the time the thread waited for a core too:
 * an upper bound). The CPU time of this thread alone per step (Linux's schedstat of the
 * main thread; process.cpuUsage would count the export thread too) with and without
 * export is printed as well: an end-to-end A/B of the thread, within this machine's noise. The export thread's own work (parse, build, encode, as it was on
 * the run's thread before) is timed on the run's events for reference; the spans the
 * receiver got are counted so the export really ran.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedLlm } from '../src-main/runtime/llm/scripted-llm';
import { createRuntime } from '../src-main/runtime/runtime';
import type { RunEvent } from '../src-shared/events';
import { ExportClient } from '../src-main/runtime/telemetry/export-client';
import { decodeTraces, encodeTraces } from '../src-main/runtime/telemetry/otlp-proto';
import { RunSpanBuilder, workbenchResource } from '../src-main/runtime/telemetry/run-spans';
import type { Span } from '../src-main/runtime/telemetry/otlp-model';
import { report, type BenchResult } from './report';

const STEPS = 400;

/** ms spent in live export's code on this thread since the last reset */
let onThreadMs = 0;
let lastLines: string[] = [];

/**
 * Clocks every method of the run's-thread half of live export (private ones included);
 * gives back what undoes it. A method called from a clocked one (add → send → post) is
 * not counted twice.
 */
function timeExportClient(): () => void {
  const proto = ExportClient.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const originals = new Map<string, (...a: unknown[]) => unknown>();
  let depth = 0;
  for (const name of ['add', 'send', 'post', 'receive', 'drop']) {
    const original = proto[name]!;
    originals.set(name, original);
    proto[name] = function (this: unknown, ...args: unknown[]) {
      if (depth++ > 0) {
        try {
          return original.apply(this, args);
        } finally {
          depth--;
        }
      }
      const t = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        onThreadMs += performance.now() - t;
        depth--;
      }
    };
  }
  return () => {
    for (const [name, original] of originals) proto[name] = original;
  };
}

/**
 * The run's-thread half alone on one run's lines, as the run manager gives them (no timer
 * fires in a synchronous loop: lines go over per batch and at run.finished), best of 5:
 * what live export costs that thread with the loop's own work and the machine's other
 * jobs out of the measure.
 */
async function replayOnThread(endpoint: string, lines: string[]): Promise<number> {
  const events = lines.map((line) => JSON.parse(line) as RunEvent);
  const client = new ExportClient({ endpoint, headers: {} });
  await client.ready;
  const times: number[] = [];
  for (let round = 0; round < 5; round++) {
    const t = performance.now();
    for (let i = 0; i < lines.length; i++) client.add(events[i]!, lines[i]!);
    times.push((performance.now() - t) / STEPS);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await client.shutdown();
  return Math.min(...times);
}

/** CPU time (ms) this thread (the main one: its task id is the pid) has run, else NaN */
const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;
function threadCpuMs(): number {
  if (!existsSync(SCHEDSTAT)) return NaN;
  return Number(readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]) / 1e6;
}

interface RunFigures {
  /** wall time per step */
  step: number;
  /** this thread's CPU time per step */
  cpu: number;
  /** live export's code on this thread, per step */
  onThread: number;
}

async function oneRun(endpoint: string | null): Promise<RunFigures> {
  const home = mkdtempSync(join(tmpdir(), 'wb-bench-otel-'));
  writeFileSync(
    join(home, 'config.toml'),
    `[llm]\nmodel = "m"\napi_key = "sk-bench-otel"\n[agent]\nmax_steps = ${STEPS + 5}\n` +
      (endpoint ? `[telemetry]\notlp_endpoint = "${endpoint}"\n` : ''),
    { mode: 0o600 },
  );
  const llm = new ScriptedLlm((_request, i) =>
    i < STEPS - 1
      ? {
          content: `step ${i}`,
          toolCalls: [{ name: 'create_chat_completion', args: { response: `r${i}` } }],
        }
      : { toolCalls: [{ name: 'terminate', args: { status: 'success' } }] },
  );
  const runtime = createRuntime({ home, createLlm: () => llm, env: {} });
  // the export thread compiles its TypeScript first (from source, via tsx): not timed
  await runtime.telemetry?.ready;
  const lines: string[] = [];
  runtime.runs.onEvent((_e, line) => lines.push(line));
  onThreadMs = 0;
  const cpu0 = threadCpuMs();
  const t0 = performance.now();
  const result = await runtime.runs.start({ agent: 'toolcall', task: 'bench' }).done;
  const figures = {
    step: (performance.now() - t0) / result.steps,
    cpu: (threadCpuMs() - cpu0) / result.steps,
    onThread: 0,
  };
  // what the run handed over is sent now (the last batch and the counts are this thread's
  // work too: timed until the export thread has flushed)
  await runtime.telemetry?.shutdown();
  figures.onThread = onThreadMs / result.steps;
  lastLines = lines;
  await runtime.dispose();
  return figures;
}

const best = (runs: RunFigures[], key: keyof RunFigures) => Math.min(...runs.map((r) => r[key]));

export async function telemetryBench(): Promise<BenchResult> {
  const untime = timeExportClient();
  // the receiver only keeps what it gets: decoding it here, on the run's thread, during
  // the runs would be counted as live export's cost (it is the receiver's); decoded after
  let bodies: Buffer[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const load = loadavg()[0]!.toFixed(1);
  await oneRun(null); // warm-up: JIT, module loading
  await oneRun(endpoint);
  bodies = [];
  const without: RunFigures[] = [];
  const withExport: RunFigures[] = [];
  for (let i = 0; i < 3; i++) {
    without.push(await oneRun(null));
    withExport.push(await oneRun(endpoint));
  }
  untime();
  let received = 0; // before the replay's own spans arrive
  for (const body of bodies.splice(0))
    for (const rs of decodeTraces(body)) for (const s of rs.scopes) received += s.spans.length;
  const replayed = await replayOnThread(endpoint, lastLines);
  server.close();
  const bare = best(without, 'step');
  const onThread = best(withExport, 'onThread');
  // The export thread's work on the same run's events (what the run's thread did before):
  // parse each line, build the spans, encode them per batch of 256. Best of 5.
  const threadCosts: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const events = lastLines.map((line) => JSON.parse(line) as RunEvent);
    const builder = new RunSpanBuilder(events[0]!.runId);
    const spansOut: Span[] = [];
    for (const event of events) spansOut.push(...builder.add(event));
    for (let at = 0; at < spansOut.length; at += 256) {
      encodeTraces(workbenchResource(), spansOut.slice(at, at + 256));
    }
    threadCosts.push((performance.now() - t) / STEPS);
  }
  const us = (ms: number) => ms * 1000;
  return report(`telemetry: live export per step (load average ${load})`, [
    {
      label: 'step without live export',
      value: us(bare),
      unit: 'µs',
      note: `best of 3, ${STEPS} steps`,
    },
    {
      label: 'step with live export',
      value: us(best(withExport, 'step')),
      unit: 'µs',
      note: `${received} spans received in the 3 timed runs`,
    },
    {
      label: 'run’s thread CPU per step, with - without',
      value: us(best(withExport, 'cpu')) - us(best(without, 'cpu')),
      unit: 'µs',
      note: `without ${us(best(without, 'cpu')).toFixed(0)} / with ${us(best(withExport, 'cpu')).toFixed(0)} µs (schedstat): whole-run A/B`,
    },
    {
      label: 'live export on the run’s thread per step',
      value: us(replayed),
      unit: 'µs',
      note: 'export-client.ts on the run’s lines: keep each, hand them over per batch',
    },
    {
      label: 'added to the run’s thread',
      value: (replayed / bare) * 100,
      unit: '%',
      note: 'that / step without export; target < 1 %',
    },
    {
      label: 'the same, clocked inside the runs',
      value: us(onThread),
      unit: 'µs',
      note: `${((onThread / bare) * 100).toFixed(2)} % of a step; wall clock in a loaded run: an upper bound`,
    },
    {
      label: 'export thread’s work per step',
      value: us(Math.min(...threadCosts)),
      unit: 'µs',
      note: `parse + build + encode, off the run’s thread (${((Math.min(...threadCosts) / bare) * 100).toFixed(1)} % of a step before)`,
    },
  ]);
}
