/**
 * OpenTelemetry in (issue 30 item 3): the OTLP receiver turns spans into read-only runs.
 * A workbench run exported and received again keeps its steps, tokens, tool calls and
 * verdicts; the same spans as OTLP/JSON
 * (written here in the JSON mapping the OTel JS JSON exporter uses) make the same run.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import { ScriptedLlm, type ScriptedReply } from '../llm/scripted-llm';
import { createRuntime } from '../runtime';
import { RunStore } from '../runs/run-store';
import { exportRunToOtlp } from './export-run';
import { startReceiverServer } from './testing/receiver-server';
import { encodeTraces } from './otlp-proto';
import { runToSpans, workbenchResource } from './run-spans';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiverServer(history: RunStore, token?: string) {
  const started = await startReceiverServer(history, token);
  cleanups.push(() => started.close());
  return started;
}

/** What must survive the trip: each step's tool calls, tokens, and the verdicts. */
function shape(events: readonly RunEvent[]) {
  const steps = new Map<number, { tools: string[]; prompt: number; completion: number }>();
  const at = (n: number) => {
    let s = steps.get(n);
    if (!s) steps.set(n, (s = { tools: [], prompt: 0, completion: 0 }));
    return s;
  };
  let duplicates = 0;
  let stuck = 0;
  for (const e of events) {
    if (e.type === 'tool.finished') at(e.step).tools.push(`${e.name}:${e.ok}`);
    if (e.type === 'llm.responded') {
      at(e.step).prompt += e.usage.prompt;
      at(e.step).completion += e.usage.completion;
    }
    if (e.type === 'memory.appended' && e.duplicate) duplicates++;
    if (e.type === 'stuck.detected') stuck++;
  }
  const finished = events.find((e) => e.type === 'run.finished');
  return {
    steps: [...steps.entries()],
    duplicates,
    stuck,
    ...(finished?.type === 'run.finished'
      ? { outcome: finished.outcome, total: finished.steps, usage: finished.usage }
      : {}),
  };
}

describe('OTLP in: the receiver', () => {
  it('a run exported and received again has the same steps, tokens, tool calls and verdicts', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-otel-in-'));
    writeFileSync(join(home, 'config.toml'), '[llm]\nmodel = "m"\napi_key = "sk-test-otel-in"\n');
    const same: ScriptedReply = {
      content: 'again',
      toolCalls: [{ name: 'create_chat_completion', args: { response: 'r' } }],
    };
    const llm = new ScriptedLlm([
      same,
      same,
      same,
      { toolCalls: [{ name: 'missing_tool', args: {} }] },
      { toolCalls: [{ name: 'terminate', args: { status: 'success' } }] },
    ]);
    const runtime = createRuntime({ home, createLlm: () => llm, env: {} });
    cleanups.push(() => runtime.dispose());
    const handle = runtime.runs.start({ agent: 'toolcall', task: 'round trip' });
    await handle.done;
    const original = runtime.runs.history.read(handle.runId)!.events;

    const store = new RunStore(mkdtempSync(join(tmpdir(), 'wb-otel-in-runs-')));
    cleanups.push(async () => store.close());
    const { url, receiver } = await receiverServer(store, 'receiver-token-0123456789');
    await expect(exportRunToOtlp(handle.runId, original, url)).rejects.toThrow(/401/);
    await exportRunToOtlp(handle.runId, original, url, {
      authorization: 'Bearer receiver-token-0123456789',
    });
    const [runId] = [...receiver.runs.values()];
    const received = store.read(runId!)!.events;
    expect(shape(received)).toEqual(shape(original));
    expect(shape(received).stuck).toBeGreaterThan(0);
    expect(shape(received).duplicates).toBeGreaterThan(0);
    const summary = store.list().find((s) => s.runId === runId)!;
    expect(summary).toMatchObject({ agent: 'toolcall', task: 'round trip', isImported: true });

    // the same spans as OTLP/JSON
    const spans = runToSpans(handle.runId, original);
    const body = otlpJson(spans);
    const jsonStore = new RunStore(mkdtempSync(join(tmpdir(), 'wb-otel-in-json-')));
    cleanups.push(async () => jsonStore.close());
    const json = await receiverServer(jsonStore);
    const response = await fetch(`${json.url}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(200);
    const [jsonRun] = [...json.receiver.runs.values()];
    expect(shape(jsonStore.read(jsonRun!)!.events)).toEqual(shape(original));

    // and bytes that are not OTLP are refused with a reason
    const bad = await fetch(`${json.url}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf' },
      body: new Uint8Array([0x0a, 0xff, 0xff]),
    });
    expect(bad.status).toBe(400);
    expect(encodeTraces(workbenchResource(), spans).length).toBeGreaterThan(100);
  });
});

/** OTLP/JSON the way the OTel JS JSON exporter writes it (hex ids, 64-bit ints as strings). */
function otlpJson(spans: ReturnType<typeof runToSpans>): string {
  const value = (v: unknown): Record<string, unknown> =>
    Array.isArray(v)
      ? { arrayValue: { values: v.map(value) } }
      : typeof v === 'string'
        ? { stringValue: v }
        : typeof v === 'boolean'
          ? { boolValue: v }
          : Number.isInteger(v)
            ? { intValue: String(v) }
            : { doubleValue: v };
  const attrs = (a: Record<string, unknown>) =>
    Object.entries(a).map(([key, v]) => ({ key, value: value(v) }));
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: attrs(workbenchResource()) },
        scopeSpans: [
          {
            scope: { name: 'agent-workbench' },
            spans: spans.map((s) => ({
              traceId: s.traceId,
              spanId: s.spanId,
              ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
              name: s.name,
              kind: s.kind,
              startTimeUnixNano: String(s.startNs),
              endTimeUnixNano: String(s.endNs),
              attributes: attrs(s.attributes),
              events: s.events.map((e) => ({
                timeUnixNano: String(e.timeNs),
                name: e.name,
                attributes: attrs(e.attributes),
              })),
              ...(s.status ? { status: s.status } : {}),
            })),
          },
        ],
      },
    ],
  });
}
