/**
 * Live export off the run's thread (issue 30: "batched, never slowing a step";
 * docs/telemetry.md): the thread that runs the agent loop only hands each event's JSON
 * line to the export thread (export-worker.ts, a real worker_threads Worker here started
 * on the TypeScript source through tsx), which builds, encodes and sends the spans. A
 * receiver that is down, or an export thread that is gone, costs counted failures and
 * drops; `shutdown` still sends what is queued.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunEvent } from '@shared/events';
import { ScriptedLlm, type ScriptedReply } from '../llm/scripted-llm';
import { createRuntime, type Runtime } from '../runtime';
import { ExportClient } from './export-client';
import { OtlpExporter } from './otlp-exporter';
import { RunSpanBuilder } from './run-spans';
import {
  decodeWithOtelDefinitions,
  startTestReceiver,
  type TestReceiver,
} from './testing/otlp-receiver';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `steps` tool steps, then terminate */
function model(steps: number): ScriptedLlm {
  return new ScriptedLlm((_request, i): ScriptedReply =>
    i < steps
      ? {
          content: `step ${i}`,
          toolCalls: [{ name: 'create_chat_completion', args: { response: `r${i}` } }],
        }
      : { toolCalls: [{ name: 'terminate', args: { status: 'success' } }] },
  );
}

function runtimeWith(llm: ScriptedLlm, endpoint: string, extra = {}): Runtime {
  const home = mkdtempSync(join(tmpdir(), 'wb-otel-thread-'));
  writeFileSync(
    join(home, 'config.toml'),
    `[llm]\nmodel = "gpt-test"\napi_key = "sk-test-otel"\n[agent]\nmax_steps = 50\n` +
      `[telemetry]\notlp_endpoint = "${endpoint}"\n`,
    { mode: 0o600 },
  );
  const runtime = createRuntime({ home, createLlm: () => llm, env: {}, ...extra });
  cleanups.push(() => runtime.dispose());
  return runtime;
}

async function receiver(): Promise<TestReceiver> {
  const r = await startTestReceiver();
  cleanups.push(() => r.close());
  return r;
}

const spanNames = (r: TestReceiver) =>
  r.requests.flatMap((req) =>
    decodeWithOtelDefinitions(req.body).resourceSpans.flatMap((rs) =>
      rs.scopeSpans.flatMap((ss) => ss.spans.map((s) => s.name)),
    ),
  );

describe('live export runs off the thread that runs the agent loop', () => {
  it('builds and encodes no span on the run’s thread, and the spans still arrive', async () => {
    // this thread's copies of the span builder and the exporter: live export used to call
    // them from the run manager's listener, once per event
    const built = vi.spyOn(RunSpanBuilder.prototype, 'add');
    const enqueued = vi.spyOn(OtlpExporter.prototype, 'enqueue');
    const r = await receiver();
    const runtime = runtimeWith(model(12), r.url);
    const events: RunEvent[] = [];
    runtime.runs.onEvent((e) => events.push(e));
    const handle = runtime.runs.start({ agent: 'toolcall', task: 'off the thread' });
    expect((await handle.done).outcome).toBe('finished');
    await runtime.telemetry!.shutdown();

    expect(built).not.toHaveBeenCalled();
    expect(enqueued).not.toHaveBeenCalled();
    const names = spanNames(r);
    expect(names).toContain('invoke_agent toolcall');
    expect(names).toContain('step 13');
    expect(names.filter((n) => n.startsWith('step ')).length).toBe(13);
    expect(runtime.telemetry!.stats).toMatchObject({
      exported: names.length,
      failures: 0,
      dropped: 0,
    });
    expect(events.length).toBeGreaterThan(13 * 3);
  });

  it('shutdown sends what is still queued on the run’s thread before it resolves', async () => {
    const r = await receiver();
    const runtime = runtimeWith(model(2), r.url);
    await runtime.telemetry!.ready;
    // a run that is stopped at once: its last events are still in this thread's queue
    // (handed over per interval) and in the exporter's (batched for 500 ms)
    const handle = runtime.runs.start({ agent: 'toolcall', task: 'flush me' });
    await handle.done;
    await runtime.telemetry!.shutdown();
    expect(spanNames(r)).toContain('invoke_agent toolcall');
    expect(runtime.telemetry!.stats.exported).toBe(spanNames(r).length);
    await runtime.telemetry!.shutdown(); // again (the runtime's dispose does): nothing more
  });

  it('an export thread that fails costs one counted failure, then counted drops', async () => {
    const failures: string[] = [];
    const client = new ExportClient({
      endpoint: 'http://127.0.0.1:9',
      headers: {},
      onFailure: (stats) => failures.push(stats.lastError ?? ''),
      entry: { script: 'throw new Error("no export code here")', options: { eval: true } },
    });
    cleanups.push(() => client.shutdown());
    await client.ready;
    expect(failures).toEqual(["live export's thread failed: no export code here"]);
    const event = { type: 'step.started', runId: 'r1', seq: 1, ts: 0 } as unknown as RunEvent;
    for (let i = 0; i < 5; i++) client.add(event, JSON.stringify(event));
    expect(client.stats).toMatchObject({ failures: 1, dropped: 5, exported: 0 });
    await client.shutdown(); // nothing to wait for
  });
});
