/**
 * OTLP in from a real instrumentation (issue 30 item 3): a small Node agent loop on the
 * official `openai` client, instrumented by OpenInference
 * (@arizeai/openinference-instrumentation-openai: `llm.*` attributes, as Arize Phoenix
 * reads them), its tool call a span of kind TOOL, exported by the OpenTelemetry SDK's
 * OTLP/protobuf exporter to the receiver: the run shows its model and tool steps and tokens.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { trace } from '@opentelemetry/api';
import { NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OpenAIInstrumentation } from '@arizeai/openinference-instrumentation-openai';
import { startScriptedServer } from '../llm/testing/scripted-openai-server';
import { RunStore } from '../runs/run-store';
import { startReceiverServer } from './testing/receiver-server';

const TOKEN = 'openinference-token-0123456789';
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

describe('OTLP in: an OpenInference-instrumented agent', () => {
  it('shows as a run with its model calls, tool call and tokens', async () => {
    const { server, baseUrl } = await startScriptedServer([
      {
        toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }],
        usage: { prompt_tokens: 31, completion_tokens: 7 },
      },
      { content: 'It is sunny in Oslo.', usage: { prompt_tokens: 52, completion_tokens: 9 } },
    ]);
    closers.push(() => server.close());
    const store = new RunStore(mkdtempSync(join(tmpdir(), 'wb-openinference-')));
    closers.push(async () => store.close());
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
    provider.register();
    closers.push(() => provider.shutdown());
    const instrumentation = new OpenAIInstrumentation();
    instrumentation.manuallyInstrument(OpenAI);
    closers.push(async () => instrumentation.disable());

    const client = new OpenAI({ apiKey: 'sk-test-openinference', baseURL: baseUrl });
    const tracer = trace.getTracer('weather-agent');
    await tracer.startActiveSpan(
      'weather agent',
      { attributes: { 'openinference.span.kind': 'AGENT', 'input.value': 'Weather in Oslo?' } },
      async (agent) => {
        const messages: OpenAI.ChatCompletionMessageParam[] = [
          { role: 'user', content: 'Weather in Oslo?' },
        ];
        const tools: OpenAI.ChatCompletionTool[] = [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              parameters: { type: 'object', properties: { city: { type: 'string' } } },
            },
          },
        ];
        const first = await client.chat.completions.create({
          model: 'gpt-4o-mini',
          messages,
          tools,
        });
        const call = first.choices[0]!.message
          .tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
        const result = await tracer.startActiveSpan(
          'get_weather',
          {
            attributes: {
              'openinference.span.kind': 'TOOL',
              'tool.name': call.function.name,
              'tool.parameters': call.function.arguments,
            },
          },
          async (span) => {
            span.setAttribute('output.value', 'sunny');
            span.end();
            return 'sunny';
          },
        );
        messages.push(first.choices[0]!.message, {
          role: 'tool',
          tool_call_id: call.id,
          content: result,
        });
        await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
        agent.end();
      },
    );
    await provider.forceFlush();

    const [runId] = [...receiver.runs.values()];
    const events = store.read(runId!)!.events;
    expect(events[0]).toMatchObject({
      type: 'run.started',
      agent: 'weather agent',
      model: 'gpt-4o-mini',
      task: 'Weather in Oslo?',
    });
    const responded = events.filter((e) => e.type === 'llm.responded');
    expect(responded.map((e) => e.type === 'llm.responded' && [e.step, e.usage])).toEqual([
      [1, { prompt: 31, completion: 7 }],
      [2, { prompt: 52, completion: 9 }],
    ]);
    const firstReply = responded[0]!;
    expect(firstReply.type === 'llm.responded' && firstReply.toolCalls[0]?.function.name).toBe(
      'get_weather',
    );
    const tool = events.find((e) => e.type === 'tool.finished');
    expect(tool).toMatchObject({ step: 1, name: 'get_weather', ok: true, output: 'sunny' });
    expect(events.find((e) => e.type === 'tool.started')).toMatchObject({ args: { city: 'Oslo' } });
    expect(events.at(-1)).toMatchObject({
      type: 'run.finished',
      outcome: 'finished',
      steps: 2,
      usage: { prompt: 83, completion: 16 },
    });
  });
});
