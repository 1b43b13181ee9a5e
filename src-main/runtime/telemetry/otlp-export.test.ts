/**
 * Runs out as OpenTelemetry (issue 30 item 2): a real run (the toolcall agent on a
 * scripted model: a repeated reply, a stuck nudge, a failed tool call) exported over
 * OTLP/HTTP and decoded with the protobuf definitions the OpenTelemetry JS packages ship;
 * every gen_ai.* attribute is one @opentelemetry/semantic-conventions defines; live export
 * sends spans while the run goes on; a receiver that is down costs the run nothing but
 * counted, shown failures.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as incubating from '@opentelemetry/semantic-conventions/incubating';
import type { RunEvent } from '@shared/events';
import { ScriptedLlm, type ScriptedReply } from '../llm/scripted-llm';
import { createRuntime, type Runtime } from '../runtime';
import { exportRunToOtlp } from './export-run';
import { decodeTraces } from './otlp-proto';
import {
  attributesOf,
  decodeWithOtelDefinitions,
  startTestReceiver,
  type DecodedSpan,
  type TestReceiver,
} from './testing/otlp-receiver';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SAME: ScriptedReply = {
  content: 'I will answer.',
  toolCalls: [{ name: 'create_chat_completion', args: { response: 'same' } }],
};

/** 5 steps: a repeat twice (duplicate, then stuck), an unknown tool, then terminate. */
function model(slowFrom?: number): ScriptedLlm {
  return new ScriptedLlm((_request, i): ScriptedReply => {
    const delay = slowFrom !== undefined && i >= slowFrom ? { delayMs: 700 } : {};
    if (i < 3) return { ...SAME, ...delay };
    if (i === 3) return { toolCalls: [{ name: 'no_such_tool', args: {} }], ...delay };
    return { toolCalls: [{ name: 'terminate', args: { status: 'success' } }], ...delay };
  });
}

function runtimeWith(llm: ScriptedLlm, telemetry = '', extra = {}): Runtime {
  const home = mkdtempSync(join(tmpdir(), 'wb-otel-'));
  writeFileSync(
    join(home, 'config.toml'),
    `[llm]\nmodel = "gpt-test"\napi_key = "sk-test-otel"\n${telemetry}`,
  );
  const runtime = createRuntime({ home, createLlm: () => llm, env: {}, ...extra });
  cleanups.push(() => runtime.dispose());
  return runtime;
}

async function receiver(status?: number): Promise<TestReceiver> {
  const r = await startTestReceiver(status);
  cleanups.push(() => r.close());
  return r;
}

function spansOf(r: TestReceiver): DecodedSpan[] {
  return r.requests.flatMap((req) =>
    decodeWithOtelDefinitions(req.body).resourceSpans.flatMap((rs) =>
      rs.scopeSpans.flatMap((ss) => ss.spans),
    ),
  );
}

const hex = (b: Uint8Array | null) => (b ? Buffer.from(b).toString('hex') : '');

describe('a run exported as OTLP spans (runs export --otlp)', () => {
  it('decodes with the OpenTelemetry protobuf definitions: run, steps, model and tool calls, verdicts', async () => {
    const runtime = runtimeWith(model());
    const handle = runtime.runs.start({ agent: 'toolcall', task: 'say something' });
    const result = await handle.done;
    const events = runtime.runs.history.read(handle.runId)!.events;
    const r = await receiver();
    const sent = await exportRunToOtlp(handle.runId, events, r.url);
    expect(r.requests[0]!.contentType).toBe('application/x-protobuf');
    const spans = spansOf(r);
    expect(spans).toHaveLength(sent.spans);

    const named = (prefix: string) => spans.filter((s) => s.name.startsWith(prefix));
    const [run] = named('invoke_agent');
    expect(run?.name).toBe('invoke_agent toolcall');
    expect(hex(run!.parentSpanId)).toBe('');
    expect(attributesOf(run!)).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'toolcall',
      'gen_ai.conversation.id': handle.runId,
      'workbench.run.outcome': 'finished',
      'workbench.run.steps': result.steps,
      'gen_ai.usage.input_tokens': result.usage.prompt,
      'gen_ai.usage.output_tokens': result.usage.completion,
    });
    const steps = named('step ');
    expect(steps).toHaveLength(result.steps);
    for (const step of steps) expect(hex(step.parentSpanId)).toBe(hex(run!.spanId));

    const chats = named('chat ');
    expect(chats).toHaveLength(result.steps);
    const chat = attributesOf(chats[0]!);
    expect(chat).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.system': 'openai',
      'gen_ai.request.model': 'scripted', // ScriptedLlm's model name
      'gen_ai.response.finish_reasons': ['tool_calls'],
    });
    expect(chats[0]!.kind).toBe(3); // CLIENT
    const tokens = chats.reduce(
      (sum, s) => sum + (attributesOf(s)['gen_ai.usage.input_tokens'] as number),
      0,
    );
    expect(tokens).toBe(result.usage.prompt);

    const tools = named('execute_tool ');
    expect(tools.map((s) => attributesOf(s)['gen_ai.tool.name'])).toEqual([
      'create_chat_completion',
      'create_chat_completion',
      'create_chat_completion',
      'no_such_tool',
      'terminate',
    ]);
    const failed = tools[3]!;
    expect(failed.status?.code).toBe(2); // ERROR
    expect(attributesOf(failed)['gen_ai.tool.call.result']).toMatch(/Unknown tool 'no_such_tool'/);
    expect(attributesOf(tools[0]!)['gen_ai.tool.call.arguments']).toBe('{"response":"same"}');

    // the run manager's duplicate verdicts and the stuck detector's, on their steps
    const verdicts = steps.map((s) => [
      attributesOf(s)['workbench.duplicate'],
      s.events.map((e) => e.name),
    ]);
    expect(verdicts[1]).toEqual(['both', []]);
    expect(verdicts.some(([, evs]) => (evs as string[]).includes('workbench.stuck'))).toBe(true);

    // every gen_ai.* name is one the semantic conventions define
    const defined = new Set(
      Object.entries(incubating)
        .filter(([k, v]) => k.startsWith('ATTR_GEN_AI_') && typeof v === 'string')
        .map(([, v]) => v as string),
    );
    const used = new Set(spans.flatMap((s) => s.attributes.map((a) => a.key)));
    const genAi = [...used].filter((k) => k.startsWith('gen_ai.'));
    expect(genAi.length).toBeGreaterThan(10);
    expect(genAi.filter((k) => !defined.has(k))).toEqual([]);

    // our own reader reads the same
    const ours = decodeTraces(r.requests[0]!.body)[0]!.scopes[0]!.spans;
    expect(ours.map((s) => s.name)).toEqual(spans.map((s) => s.name));
  });

  it('caps tool arguments and results', async () => {
    const big = 'x'.repeat(20_000);
    const runtime = runtimeWith(
      new ScriptedLlm([
        { toolCalls: [{ name: 'create_chat_completion', args: { response: big } }] },
        { toolCalls: [{ name: 'terminate', args: { status: 'success' } }] },
      ]),
    );
    const handle = runtime.runs.start({ agent: 'toolcall', task: 'big' });
    await handle.done;
    const r = await receiver();
    await exportRunToOtlp(handle.runId, runtime.runs.history.read(handle.runId)!.events, r.url);
    const tool = spansOf(r).find((s) => s.name === 'execute_tool create_chat_completion')!;
    const args = attributesOf(tool)['gen_ai.tool.call.arguments'] as string;
    expect(args.length).toBeLessThan(4_200);
    expect(args).toMatch(/more characters cut\]$/);
  });
});

describe('live export ([telemetry] otlp_endpoint)', () => {
  it("sends a run's spans while it runs", async () => {
    const r = await receiver();
    const runtime = runtimeWith(model(2), `[telemetry]\notlp_endpoint = "${r.url}"\n`);
    expect(runtime.telemetry?.endpoint).toBe(r.url);
    const events: RunEvent[] = [];
    runtime.runs.onEvent((e) => events.push(e));
    // From source the export thread first compiles its TypeScript (about a second on a
    // busy machine); built, it starts in a few ms. Wait, so "while it runs" is measured.
    await runtime.telemetry!.ready;
    const handle = runtime.runs.start({ agent: 'toolcall', task: 'live' });
    await handle.done;
    const finishedAt = events.find((e) => e.type === 'run.finished')!.ts;
    await runtime.telemetry!.shutdown();
    // spans of the first steps arrived before the run finished
    const early = r.requests.filter((req) => req.at < finishedAt);
    expect(early.length).toBeGreaterThan(0);
    const earlyNames = early.flatMap((req) =>
      decodeWithOtelDefinitions(req.body).resourceSpans[0]!.scopeSpans[0]!.spans.map((s) => s.name),
    );
    expect(earlyNames).toContain('step 1');
    expect(spansOf(r).some((s) => s.name === 'invoke_agent toolcall')).toBe(true);
    expect(runtime.telemetry!.stats).toMatchObject({ failures: 0, dropped: 0 });
  });

  it('a receiver that is down costs the run nothing but counted, shown failures', async () => {
    const down = await receiver();
    const url = down.url;
    await down.close(); // nothing listens there now
    const shown: string[] = [];
    const runtime = runtimeWith(model(0), `[telemetry]\notlp_endpoint = "${url}/v1/traces"\n`, {
      onTelemetryFailure: (stats: { failures: number; lastError?: string }) =>
        shown.push(`${stats.failures}: ${stats.lastError}`),
    });
    const handle = runtime.runs.start({ agent: 'toolcall', task: 'down' });
    const result = await handle.done;
    expect(result.outcome).toBe('finished');
    await runtime.telemetry!.shutdown();
    expect(runtime.telemetry!.stats.failures).toBeGreaterThan(0);
    expect(runtime.telemetry!.stats.exported).toBe(0);
    expect(shown[0]).toMatch(/^1: fetch failed \(ECONNREFUSED\)/);
  });
});
