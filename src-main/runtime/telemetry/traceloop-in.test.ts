/**
 * OTLP in from OpenLLMetry (issue 30 item 3): an agent on the official `openai` client,
 * instrumented by @traceloop/node-server-sdk (its `withAgent` / `withTool` and its OpenAI
 * instrumentation), exporting with its own OTLP exporter to the receiver (`baseUrl`, the
 * token as its API key): the run shows its model and tool steps and token counts.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import * as traceloop from '@traceloop/node-server-sdk';
import { startScriptedServer } from '../llm/testing/scripted-openai-server';
import { RunStore } from '../runs/run-store';
import { startReceiverServer } from './testing/receiver-server';

const TOKEN = 'traceloop-token-0123456789';
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

describe('OTLP in: an OpenLLMetry-instrumented agent', () => {
  it('shows as a run with its model calls, tool call and tokens', async () => {
    const { server, baseUrl } = await startScriptedServer([
      {
        toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }],
        usage: { prompt_tokens: 31, completion_tokens: 7 },
      },
      { content: 'It is sunny in Oslo.', usage: { prompt_tokens: 52, completion_tokens: 9 } },
    ]);
    closers.push(() => server.close());
    const store = new RunStore(mkdtempSync(join(tmpdir(), 'wb-traceloop-')));
    closers.push(async () => store.close());
    const { url, receiver, close } = await startReceiverServer(store, TOKEN);
    closers.push(close);

    traceloop.initialize({
      appName: 'weather-app',
      baseUrl: url,
      apiKey: TOKEN,
      disableBatch: true,
      silenceInitializationMessage: true,
      instrumentModules: { openAI: OpenAI },
    });
    const client = new OpenAI({ apiKey: 'sk-test-traceloop', baseURL: baseUrl });
    const tools: OpenAI.ChatCompletionTool[] = [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
    ];
    await traceloop.withAgent({ name: 'weather_agent' }, async () => {
      const messages: OpenAI.ChatCompletionMessageParam[] = [
        { role: 'user', content: 'Weather in Oslo?' },
      ];
      const first = await client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages,
        tools,
      });
      const call = first.choices[0]!.message
        .tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
      const result = await traceloop.withTool({ name: 'get_weather' }, async () => 'sunny');
      messages.push(first.choices[0]!.message, {
        role: 'tool',
        tool_call_id: call.id,
        content: result as string,
      });
      await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
    });
    await traceloop.forceFlush();

    const [runId] = [...receiver.runs.values()];
    const events = store.read(runId!)!.events;
    const responded = events.filter((e) => e.type === 'llm.responded');
    expect(responded.map((e) => e.type === 'llm.responded' && [e.step, e.usage])).toEqual([
      [1, { prompt: 31, completion: 7 }],
      [2, { prompt: 52, completion: 9 }],
    ]);
    const firstReply = responded[0]!;
    expect(firstReply.type === 'llm.responded' && firstReply.toolCalls[0]?.function.name).toBe(
      'get_weather',
    );
    expect(events.find((e) => e.type === 'tool.finished')).toMatchObject({
      step: 1,
      name: 'get_weather',
      ok: true,
    });
    expect(events.at(-1)).toMatchObject({
      type: 'run.finished',
      steps: 2,
      usage: { prompt: 83, completion: 16 },
    });
  });
});
