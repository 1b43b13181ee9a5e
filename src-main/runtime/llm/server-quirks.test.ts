/**
 * OpenAI-compatible servers that are not OpenAI (issue 16 item 5), reproduced with the
 * scripted server: a stream sent without a content-type, a stream that drops the tool
 * calls, and errors sent inside a 200 answer (`data: {"error": ...}`) for 401, 429 and
 * 500. Each is checked through the real client, and the dropped tool calls also through
 * an agent run, which used to end "finished" having done nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '@shared/domain/message';
import type { RetryNotice } from './llm-client';
import { LlmError } from './llm-errors';
import { OpenAiLlm } from './openai-llm';
import { FAST_RETRY, testProfile } from './testing/profiles';
import {
  startScriptedServer,
  type ScriptedOpenAiServer,
  type ServerScript,
} from './testing/scripted-openai-server';
import { reply } from './testing/scripted-replies';
import type { LlmProfile } from '../config/schema';
import { startHarness, type Harness } from '../loop/testing/agent-harness';

let server: ScriptedOpenAiServer | null = null;
let h: Harness | null = null;
afterEach(async () => {
  await server?.close();
  await h?.close();
  server = null;
  h = null;
});

const task: Message[] = [{ role: 'user', content: 'say hi' }];
const echoSpec = {
  type: 'function' as const,
  function: { name: 'echo', description: 'echo', parameters: { type: 'object' } },
};

async function setup(script: ServerScript, overrides: Partial<LlmProfile> = {}) {
  const started = await startScriptedServer(script);
  server = started.server;
  return new OpenAiLlm(testProfile(started.baseUrl, overrides), { retry: FAST_RETRY });
}

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => new Error('expected the call to fail'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LlmError);
  return error as LlmError;
}

describe('a stream without a content-type header', () => {
  it('is read, as the openai SDK reads it (it used to be refused as "not a chat endpoint")', async () => {
    const llm = await setup([{ content: 'streamed without a header', noContentType: true }]);
    const deltas: string[] = [];
    const response = await llm.complete({ messages: task }, { onDelta: (t) => deltas.push(t) });
    expect(response.content).toBe('streamed without a header');
    expect(deltas.join('')).toBe('streamed without a header');
  });

  it('an HTML page is still refused with what to check', async () => {
    const llm = await setup([{ html: true }]);
    expect((await failure(llm.complete({ messages: task }))).message).toMatch(/check base_url/);
  });
});

describe('a stream that drops the tool calls', () => {
  it('is asked again without streaming, announced as a retry, and the client stops streaming', async () => {
    const llm = await setup(() => ({
      content: null,
      toolCalls: [{ name: 'echo', arguments: { text: 'x' } }],
      dropStreamedToolCalls: true,
    }));
    const notices: RetryNotice[] = [];
    const request = { messages: task, tools: [echoSpec] };
    const first = await llm.complete(request, { onRetry: (n) => notices.push(n) });
    expect(first.toolCalls.map((c) => c.function.name)).toEqual(['echo']);
    expect(notices).toEqual([
      expect.objectContaining({ status: null, error: expect.stringMatching(/without streaming/) }),
    ]);
    expect(server!.requests.map((r) => r.stream)).toEqual([true, false]);
    await llm.complete(request);
    expect(server!.requests.map((r) => r.stream)).toEqual([true, false, false]);
  });

  it('finish_reason "tool_calls" with no tool call is caught too', async () => {
    const llm = await setup(() => ({
      content: 'calling',
      toolCalls: [{ name: 'echo', arguments: { text: 'x' } }],
      dropStreamedToolCalls: true,
      finishReason: 'tool_calls',
    }));
    const response = await llm.complete({ messages: task, tools: [echoSpec] });
    expect(response.toolCalls).toHaveLength(1);
  });

  it('an agent on such a server runs its tools and terminates (it used to finish having done nothing)', async () => {
    h = await startHarness((request) =>
      request.messages.some((m) => m.role === 'tool')
        ? { ...reply.terminate(), dropStreamedToolCalls: true }
        : { ...reply.tool('echo', { text: 'did it' }), dropStreamedToolCalls: true },
    );
    const result = await h.run();
    expect(result).toMatchObject({ outcome: 'finished', terminateStatus: 'success' });
    expect(h.echoed).toEqual(['did it']);
    expect(h.of('llm.retried')[0]).toMatchObject({
      error: expect.stringMatching(/without streaming/),
    });
  });

  it('a server that answers nothing at all ends the run as an error, not as finished', async () => {
    h = await startHarness(() => ({ content: '' }));
    const result = await h.run();
    expect(result.outcome).toBe('error');
    expect(result.error).toMatch(/neither text nor a tool call.*stream = false/);
  });
});

describe('errors sent inside a 200 answer are classified like HTTP errors', () => {
  const inBand = (code: number | string, message: string, type?: string) => ({
    inBandError: { body: { message, code, ...(type ? { type } : {}) } },
  });

  it('401: says the key was rejected, and is not retried', async () => {
    const llm = await setup(() =>
      inBand('invalid_api_key', 'Incorrect API key provided', 'invalid_request_error'),
    );
    const error = await failure(llm.complete({ messages: task }));
    expect(error.kind).toBe('AUTH');
    expect(error.message).toMatch(/rejected the API key of profile "default".*Incorrect API key/);
    expect(error.message).toContain('sent inside the 200 stream');
    expect(server!.requests).toHaveLength(1);
  });

  it('429: is retried, then rate-limited by name; a later success goes through', async () => {
    const llm = await setup([inBand(429, 'Rate limit reached'), reply.text('after the limit')]);
    const notices: RetryNotice[] = [];
    const response = await llm.complete({ messages: task }, { onRetry: (n) => notices.push(n) });
    expect(response.content).toBe('after the limit');
    expect(notices[0]).toMatchObject({ status: 429, error: expect.stringMatching(/Rate limited/) });

    const always = await setup(() => inBand('429', 'Rate limit reached'), { maxRetries: 1 });
    const error = await failure(always.complete({ messages: task }));
    expect(error.kind).toBe('RATE_LIMIT');
    expect(server!.requests).toHaveLength(2);
  });

  it('500: is retried as a server failure', async () => {
    const llm = await setup([inBand(500, 'upstream exploded', 'server_error'), reply.text('fine')]);
    const notices: RetryNotice[] = [];
    expect(
      (await llm.complete({ messages: task }, { onRetry: (n) => notices.push(n) })).content,
    ).toBe('fine');
    expect(notices[0]).toMatchObject({ status: 500 });
  });

  it('after text was streamed: the class is named, the text is kept, nothing is retried', async () => {
    const llm = await setup([
      {
        content: 'half an answer',
        chunkSize: 4,
        inBandError: { body: { code: 503, message: 'busy' }, afterChunks: 3 },
      },
    ]);
    const error = await failure(llm.complete({ messages: task }));
    expect(error.kind).toBe('NETWORK_MIDSTREAM');
    expect(error.message).toMatch(/The provider failed \(503\): busy .*after 8 characters/);
    expect(error.partialContent).toBe('half an ');
    expect(server!.requests).toHaveLength(1);
  });

  it('a context-length error in the stream says what to lower', async () => {
    const llm = await setup(() =>
      inBand(
        'context_length_exceeded',
        "This model's maximum context length is 8192 tokens",
        'invalid_request_error',
      ),
    );
    const error = await failure(llm.complete({ messages: task }));
    expect(error.kind).toBe('CONTEXT_LIMIT');
    expect(error.message).toMatch(/maximum context length.*Lower max_messages or max_observe/);
    expect(server!.requests).toHaveLength(1);
  });

  it('non-streaming: a 200 JSON body that is only an error is classified too', async () => {
    const llm = await setup(() => inBand(401, 'bad key'), { stream: false });
    const error = await failure(llm.complete({ messages: task }));
    expect(error.kind).toBe('AUTH');
    expect(error.message).toMatch(/sent with status 200/);
  });
});
