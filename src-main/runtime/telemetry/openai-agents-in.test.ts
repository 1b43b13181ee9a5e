/**
 * OTLP in from the `@openai/agents` SDK (issue 30 item 3): a real Agent with a function
 * tool, on the SDK's Chat Completions model against the scripted server, its own traces
 * turned into OpenTelemetry spans by the bridge (openai-agents-otel.ts) and sent by the
 * OTel SDK's OTLP/protobuf exporter to the receiver: the run shows its model and tool
 * steps and token counts. The Responses mapping is checked on spans made with the SDK's own
 * span API (the scripted server speaks Chat Completions only).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  createAgentSpan,
  createFunctionSpan,
  createResponseSpan,
  OpenAIProvider,
  Runner,
  setTraceProcessors,
  setTracingDisabled,
  tool,
  withTrace,
} from '@openai/agents';
import { NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { startScriptedServer } from '../llm/testing/scripted-openai-server';
import { RunStore } from '../runs/run-store';
import { startReceiverServer } from './testing/receiver-server';
import { OpenAIAgentsOtelProcessor } from './openai-agents-otel';

const TOKEN = 'openai-agents-token-0123456789';
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

/** A receiver, and the SDK's traces sent to it through the bridge and an OTLP exporter. */
async function bridgeToReceiver(store: RunStore) {
  const { url, receiver, close } = await startReceiverServer(store, TOKEN);
  closers.push(close);
  const provider = new NodeTracerProvider({
    spanProcessors: [
      new SimpleSpanProcessor(
        new OTLPTraceExporter({
          url: `${url}/v1/traces`,
          headers: { Authorization: `Bearer ${TOKEN}` },
        }),
      ),
    ],
  });
  closers.push(() => provider.shutdown());
  // the SDK traces nothing under NODE_ENV=test unless told; its own OpenAI exporter is
  // replaced, so nothing leaves for api.openai.com
  setTracingDisabled(false);
  setTraceProcessors([new OpenAIAgentsOtelProcessor(provider.getTracer('openai-agents'))]);
  closers.push(async () => {
    setTraceProcessors([]);
    setTracingDisabled(true);
  });
  return { receiver, provider };
}

describe('OTLP in: the @openai/agents SDK through the bridge', () => {
  it('shows as a run with its model calls, tool call and tokens', async () => {
    const { server, baseUrl } = await startScriptedServer([
      {
        toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }],
        usage: { prompt_tokens: 31, completion_tokens: 7 },
      },
      { content: 'It is sunny in Oslo.', usage: { prompt_tokens: 52, completion_tokens: 9 } },
    ]);
    closers.push(() => server.close());
    const store = new RunStore(mkdtempSync(join(tmpdir(), 'wb-openai-agents-')));
    closers.push(async () => store.close());
    const { receiver, provider } = await bridgeToReceiver(store);

    const agent = new Agent({
      name: 'weather_agent',
      instructions: 'Answer with the weather.',
      model: 'gpt-4o-mini',
      tools: [
        tool({
          name: 'get_weather',
          description: 'The weather of a city',
          parameters: z.object({ city: z.string() }),
          execute: async ({ city }) => `sunny in ${city}`,
        }),
      ],
    });
    const modelProvider = new OpenAIProvider({
      baseURL: baseUrl,
      apiKey: 'sk-test-openai-agents',
      useResponses: false,
    });
    const result = await new Runner({ modelProvider }).run(agent, 'Weather in Oslo?');
    expect(result.finalOutput).toBe('It is sunny in Oslo.');
    await provider.forceFlush();

    const runIds = [...receiver.runs.values()];
    expect(runIds).toHaveLength(1);
    const run = store.read(runIds[0]!)!;
    const events = run.events;
    expect(events[0]).toMatchObject({ type: 'run.started', agent: 'weather_agent' });
    const responded = events.filter((e) => e.type === 'llm.responded');
    expect(responded.map((e) => e.type === 'llm.responded' && [e.step, e.model, e.usage])).toEqual([
      [1, 'gpt-4o-mini', { prompt: 31, completion: 7 }],
      [2, 'gpt-4o-mini', { prompt: 52, completion: 9 }],
    ]);
    const [first, last] = responded;
    expect(first?.type === 'llm.responded' && first.toolCalls[0]?.function).toEqual({
      name: 'get_weather',
      arguments: '{"city":"Oslo"}',
    });
    expect(last?.type === 'llm.responded' && last.content).toBe('It is sunny in Oslo.');
    expect(events.find((e) => e.type === 'tool.finished')).toMatchObject({
      step: 1,
      name: 'get_weather',
      ok: true,
      output: 'sunny in Oslo',
    });
    expect(events.find((e) => e.type === 'tool.started')).toMatchObject({
      step: 1,
      args: { city: 'Oslo' },
    });
    expect(events.at(-1)).toMatchObject({
      type: 'run.finished',
      outcome: 'finished',
      steps: 2,
      usage: { prompt: 83, completion: 16 },
    });
  });

  it('maps a Responses model call (the response object on the response span)', async () => {
    const store = new RunStore(mkdtempSync(join(tmpdir(), 'wb-openai-agents-responses-')));
    closers.push(async () => store.close());
    const { receiver, provider } = await bridgeToReceiver(store);

    await withTrace('Responses workflow', async () => {
      const agentSpan = createAgentSpan({ data: { name: 'responses_agent' } });
      agentSpan.start();
      const response = createResponseSpan({}, agentSpan);
      response.start();
      response.spanData.response_id = 'resp_1';
      response.spanData._response = {
        id: 'resp_1',
        model: 'gpt-4.1-mini',
        usage: { input_tokens: 40, output_tokens: 6 },
        output: [
          {
            type: 'function_call',
            call_id: 'call_7',
            name: 'get_weather',
            arguments: '{"city":"Rome"}',
          },
        ],
      };
      response.end();
      const fn = createFunctionSpan({ data: { name: 'get_weather' } }, agentSpan);
      fn.start();
      fn.spanData.input = '{"city":"Rome"}';
      fn.spanData.output = 'rainy';
      fn.end();
      agentSpan.end();
    });
    await provider.forceFlush();

    const [runId] = [...receiver.runs.values()];
    const events = store.read(runId!)!.events;
    const responded = events.find((e) => e.type === 'llm.responded');
    expect(responded).toMatchObject({
      step: 1,
      model: 'gpt-4.1-mini',
      usage: { prompt: 40, completion: 6 },
      finishReason: 'tool_calls',
      toolCalls: [
        { id: 'call_7', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
      ],
    });
    expect(events.find((e) => e.type === 'tool.finished')).toMatchObject({
      step: 1,
      name: 'get_weather',
      output: 'rainy',
    });
  });
});
