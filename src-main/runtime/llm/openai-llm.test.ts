/**
 * The OpenAI client against the scripted server, through the real `openai` SDK: streaming
 * and not, tool calls, usage, Azure and Ollama, request parameters, the context guard.
 */
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '@shared/domain/message';
import type { ToolSpec } from './llm-client';
import { LlmError } from './llm-errors';
import { OpenAiLlm } from './openai-llm';
import { FAST_RETRY, testProfile } from './testing/profiles';
import {
  startScriptedServer,
  type ScriptedOpenAiServer,
  type ServerScript,
} from './testing/scripted-openai-server';
import { reply } from './testing/scripted-replies';

let server: ScriptedOpenAiServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function serve(script: ServerScript) {
  const started = await startScriptedServer(script);
  server = started.server;
  return started.baseUrl;
}

const task: Message[] = [{ role: 'user', content: 'say hi' }];
const terminateSpec: ToolSpec = {
  type: 'function',
  function: {
    name: 'terminate',
    description: 'end',
    parameters: { type: 'object', properties: { status: { type: 'string' } } },
  },
};

describe('OpenAiLlm', () => {
  it('streams content as deltas and returns the reply with the provider usage', async () => {
    const baseUrl = await serve([{ content: 'hello there, general', chunkSize: 3 }]);
    const llm = new OpenAiLlm(testProfile(baseUrl));
    const deltas: string[] = [];
    const response = await llm.complete({ messages: task }, { onDelta: (t) => deltas.push(t) });
    expect(response.content).toBe('hello there, general');
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe('hello there, general');
    expect(response.finishReason).toBe('stop');
    expect(response.model).toBe('gpt-test');
    expect(response.usage.prompt).toBeGreaterThan(0);
    expect(response.usage.completion).toBeGreaterThan(0);
    const sent = server!.requests[0]!;
    expect(sent.stream).toBe(true);
    expect(sent.body['stream_options']).toEqual({ include_usage: true });
    expect(sent.body['max_tokens']).toBe(256);
    expect(sent.body['temperature']).toBe(0);
  });

  it('reassembles streamed tool calls, several in one reply', async () => {
    const baseUrl = await serve([
      {
        content: null,
        toolCalls: [
          { name: 'terminate', arguments: { status: 'success' }, id: 'call_a' },
          { name: 'terminate', arguments: { status: 'failure', note: 'y'.repeat(50) } },
        ],
        chunkSize: 4,
      },
    ]);
    const llm = new OpenAiLlm(testProfile(baseUrl));
    const response = await llm.complete({ messages: task, tools: [terminateSpec] });
    expect(response.content).toBeNull();
    expect(response.finishReason).toBe('tool_calls');
    expect(response.toolCalls).toHaveLength(2);
    expect(response.toolCalls[0]).toEqual({
      id: 'call_a',
      type: 'function',
      function: { name: 'terminate', arguments: '{"status":"success"}' },
    });
    expect(JSON.parse(response.toolCalls[1]!.function.arguments)).toMatchObject({
      status: 'failure',
    });
    expect(server!.requests[0]!.body['tool_choice']).toBe('auto');
  });

  it('works without streaming too', async () => {
    const baseUrl = await serve([reply.tool('terminate', { status: 'success' }, 'done')]);
    const llm = new OpenAiLlm(testProfile(baseUrl, { stream: false }));
    const deltas: string[] = [];
    const response = await llm.complete(
      { messages: task, tools: [terminateSpec], toolChoice: 'required' },
      { onDelta: (t) => deltas.push(t) },
    );
    expect(response.content).toBe('done');
    expect(response.toolCalls[0]?.function.name).toBe('terminate');
    expect(deltas).toEqual([]);
    expect(server!.requests[0]!.stream).toBe(false);
    expect(server!.requests[0]!.toolChoice).toBe('required');
  });

  it('sends the whole conversation in the wire format, images as image_url parts', async () => {
    const baseUrl = await serve([reply.text('ok')]);
    const llm = new OpenAiLlm(testProfile(baseUrl));
    await llm.complete({
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'task' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', content: 'result', tool_call_id: 'c1', name: 'f' },
        {
          role: 'user',
          content: 'screenshot',
          image: { mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        },
      ],
    });
    const sent = server!.requests[0]!.messages;
    expect(sent[2]).toMatchObject({ role: 'assistant', content: null });
    expect(sent[3]).toEqual({ role: 'tool', content: 'result', tool_call_id: 'c1' });
    expect(sent[4]?.content).toEqual([
      { type: 'text', text: 'screenshot' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
    ]);
  });

  it('asks reasoning models for max_completion_tokens and no temperature', async () => {
    const baseUrl = await serve([reply.text('ok')]);
    await new OpenAiLlm(testProfile(baseUrl, { model: 'o3-mini' })).complete({ messages: task });
    const body = server!.requests[0]!.body;
    expect(body['max_completion_tokens']).toBe(256);
    expect(body).not.toHaveProperty('max_tokens');
    expect(body).not.toHaveProperty('temperature');
  });

  it('speaks Azure: deployment path, api-version and the api-key header', async () => {
    const baseUrl = await serve([reply.text('from azure')]);
    const origin = new URL(baseUrl).origin;
    const llm = new OpenAiLlm(
      testProfile(origin, { apiType: 'azure', model: 'my-deploy', apiVersion: '2024-06-01' }),
    );
    const response = await llm.complete({ messages: task });
    expect(response.content).toBe('from azure');
    const sent = server!.requests[0]!;
    expect(sent.path).toBe('/openai/deployments/my-deploy/chat/completions');
    expect(sent.headers['api-key']).toBe('sk-test-key-0000');
  });

  it("reaches the deployment of OpenManus's Azure base_url (ENDPOINT/openai/deployments/NAME), issue 16 item 1", async () => {
    const baseUrl = await serve([reply.text('from the deployment')]);
    const origin = new URL(baseUrl).origin;
    const llm = new OpenAiLlm(
      testProfile(`${origin}/openai/deployments/prod-4o/`, {
        apiType: 'azure',
        model: 'gpt-4o-mini',
        apiVersion: '2024-08-01-preview',
      }),
    );
    expect((await llm.complete({ messages: task })).content).toBe('from the deployment');
    const sent = server!.requests[0]!;
    // before: /openai/deployments/prod-4o/openai/chat/completions, a 404 on Azure
    expect(sent.path).toBe('/openai/deployments/prod-4o/chat/completions');
    expect(sent.query['api-version']).toBe('2024-08-01-preview');
    expect(sent.model).toBe('gpt-4o-mini');
  });

  it('speaks Ollama without a key', async () => {
    const baseUrl = await serve([reply.text('llama says hi')]);
    const llm = new OpenAiLlm(testProfile(baseUrl, { apiType: 'ollama', apiKey: '' }));
    expect((await llm.complete({ messages: task })).content).toBe('llama says hi');
  });

  it('drops stream_options for a server that refuses it, and counts usage itself', async () => {
    const baseUrl = await serve((request) =>
      request.body['stream_options']
        ? {
            error: {
              status: 400,
              body: {
                error: { message: 'Unrecognized request argument supplied: stream_options' },
              },
            },
          }
        : { content: 'fine', usage: false },
    );
    const llm = new OpenAiLlm(testProfile(baseUrl));
    const first = await llm.complete({ messages: task });
    expect(first.content).toBe('fine');
    expect(first.usage.completion).toBeGreaterThan(0);
    await llm.complete({ messages: task });
    expect(server!.requests.map((r) => 'stream_options' in r.body)).toEqual([true, false, false]);
    // no usage from the server: the o200k table is built here (1.5 s, more under load)
  }, 30_000);

  it('guards the context per request with a real tokenizer, before sending', async () => {
    const baseUrl = await serve([reply.text('never')]);
    const llm = new OpenAiLlm(testProfile(baseUrl, { maxInputTokens: 300 }));
    const big: Message[] = [{ role: 'user', content: 'lorem ipsum dolor sit amet '.repeat(100) }];
    expect(llm.countTokens({ messages: big })).toBeGreaterThan(300);
    const error = (await llm.complete({ messages: big }).catch((e: unknown) => e)) as LlmError;
    expect(error).toBeInstanceOf(LlmError);
    expect(error.kind).toBe('CONTEXT_LIMIT');
    expect(error.message).toMatch(/max_input_tokens = 300/);
    expect(server!.requests).toHaveLength(0);
  });

  it('fixes openmanus 7.2 item 3: max_input_tokens limits each request, not the lifetime total', async () => {
    const baseUrl = await serve(() => reply.text('ok'));
    const llm = new OpenAiLlm(testProfile(baseUrl, { maxInputTokens: 300 }));
    const messages: Message[] = [
      { role: 'user', content: 'a question of about fifty tokens '.repeat(8) },
    ];
    const perRequest = llm.countTokens({ messages });
    expect(perRequest).toBeLessThan(300);
    // 20 requests add up to far more than the limit; each one alone fits, so all go out.
    for (let i = 0; i < 20; i++) await llm.complete({ messages });
    expect(server!.requests).toHaveLength(20);
    expect(perRequest * 20).toBeGreaterThan(300 * 3);
  });

  it('never shows the API key, not even when inspected', async () => {
    const baseUrl = await serve([reply.text('ok')]);
    const key = 'sk-sentinel-6f1d2c3b4a5e';
    const llm = new OpenAiLlm(testProfile(baseUrl, { apiKey: key }), { retry: FAST_RETRY });
    expect(inspect(llm, { depth: 10, showHidden: true })).not.toContain(key);
    expect(JSON.stringify(llm)).not.toContain(key);
  });
});
