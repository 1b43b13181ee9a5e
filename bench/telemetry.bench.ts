/**
 * What live export (`[telemetry] otlp_endpoint`, docs/telemetry.md) adds to a step: the
 * same 400-step run of the toolcall agent (scripted model answering at once, so the
 * figure is the loop's own time per step, history written to disk) with and without live
 * export to a local OTLP receiver, alternated, best of 3 each. The ratio is taken in one
 * run of this bench; the spans the receiver got are counted so the export really ran.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedLlm } from '../src-main/runtime/llm/scripted-llm';
import { createRuntime } from '../src-main/runtime/runtime';
import type { RunEvent } from '../src-shared/events';
import { decodeTraces, encodeTraces } from '../src-main/runtime/telemetry/otlp-proto';
import { RunSpanBuilder, workbenchResource } from '../src-main/runtime/telemetry/run-spans';
import type { Span } from '../src-main/runtime/telemetry/otlp-model';
import { report, type BenchResult } from './report';

const STEPS = 400;

let lastEvents: RunEvent[] = [];

async function oneRun(endpoint: string | null): Promise<number> {
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
  const events: RunEvent[] = [];
  runtime.runs.onEvent((e) => events.push(e));
  const t0 = performance.now();
  const result = await runtime.runs.start({ agent: 'toolcall', task: 'bench' }).done;
  lastEvents = events;
  const perStep = (performance.now() - t0) / result.steps;
  await runtime.dispose();
  return perStep;
}

export async function telemetryBench(): Promise<BenchResult> {
  let spans = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      for (const rs of decodeTraces(Buffer.concat(chunks)))
        for (const s of rs.scopes) spans += s.spans.length;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await oneRun(null); // warm-up: JIT, module loading
  const without: number[] = [];
  const withExport: number[] = [];
  for (let i = 0; i < 3; i++) {
    without.push(await oneRun(null));
    withExport.push(await oneRun(endpoint));
  }
  server.close();
  const a = Math.min(...without);
  const b = Math.min(...withExport);
  // The work live export puts on the run's thread, timed directly on the same run's
  // events: spans built per event (the listener) and encoded per batch (the exporter);
  // the network send is asynchronous I/O. Best of 5.
  const exportCosts: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const builder = new RunSpanBuilder(lastEvents[0]!.runId);
    const spansOut: Span[] = [];
    for (const event of lastEvents) spansOut.push(...builder.add(event));
    for (let at = 0; at < spansOut.length; at += 256) {
      encodeTraces(workbenchResource(), spansOut.slice(at, at + 256));
    }
    exportCosts.push((performance.now() - t) / STEPS);
  }
  const cost = Math.min(...exportCosts);
  return report('telemetry: live export per step', [
    {
      label: 'step without live export',
      value: a * 1000,
      unit: 'µs',
      note: `best of 3, ${STEPS} steps`,
    },
    {
      label: 'step with live export',
      value: b * 1000,
      unit: 'µs',
      note: `${spans} spans received`,
    },
    {
      label: 'end to end difference',
      value: ((b - a) / a) * 100,
      unit: '%',
      note: 'A/B of whole runs: within this machine’s noise',
    },
    { label: 'export work per step', value: cost * 1000, unit: 'µs', note: 'build + encode' },
    {
      label: 'added by live export',
      value: (cost / a) * 100,
      unit: '%',
      note: 'export work / step without export; target < 1 %',
    },
  ]);
}
