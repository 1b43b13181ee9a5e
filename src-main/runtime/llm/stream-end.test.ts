/**
 * Issue 26 item 7: a stream that ends before `finish_reason` / `[DONE]` is not an answer.
 * Against the scripted server (which can end a stream cleanly half-way, as a proxy does)
 * and, for the byte watcher, against hand-cut chunks.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '@shared/domain/message';
import type { RetryNotice } from './llm-client';
import { LlmError } from './llm-errors';
import { OpenAiLlm } from './openai-llm';
import { streamSaidDone, watchStreamEnd } from './stream-end';
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

const task: Message[] = [{ role: 'user', content: 'say hi' }];

async function setup(script: ServerScript, maxRetries = 2) {
  const started = await startScriptedServer(script);
  server = started.server;
  return new OpenAiLlm(testProfile(started.baseUrl, { maxRetries }), { retry: FAST_RETRY });
}

describe('a stream cut before it said it was complete', () => {
  it('is retried, and the whole answer of the next attempt is used', async () => {
    const llm = await setup([
      { content: 'the first half of an answer', chunkSize: 4, endAfterChunks: 3 },
      reply.text('the whole answer'),
    ]);
    const notices: RetryNotice[] = [];
    const response = await llm.complete({ messages: task }, { onRetry: (n) => notices.push(n) });
    expect(response.content).toBe('the whole answer');
    expect(notices).toHaveLength(1);
    expect(notices[0]?.error).toMatch(
      /stream ended before the answer was complete \(no finish_reason and no \[DONE\], after 8 characters/,
    );
    expect(server!.requests).toHaveLength(2);
  });

  it('fails when every attempt is cut, keeping the text so far', async () => {
    const cut = { content: 'partial answer text', chunkSize: 4, endAfterChunks: 3 };
    const llm = await setup([cut, cut, cut], 2);
    const error = await llm.complete({ messages: task }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).message).toMatch(/ended before the answer was complete.*3 attempts/);
    expect((error as LlmError).partialContent).toBe('partial ');
    expect(server!.requests).toHaveLength(3);
  });

  it('a cut in the middle of a tool call is not run as a call with half its arguments', async () => {
    const llm = await setup([
      { ...reply.tool('bash', { command: 'rm -rf /tmp/x && echo done' }), endAfterChunks: 4 },
      reply.tool('bash', { command: 'echo whole' }),
    ]);
    const response = await llm.complete({ messages: task });
    expect(response.toolCalls.map((c) => c.function.arguments)).toEqual([
      JSON.stringify({ command: 'echo whole' }),
    ]);
  });

  it('[DONE] without a finish_reason, or a finish_reason without [DONE], is a whole answer', async () => {
    const llm = await setup([
      { content: 'no finish reason', omitFinishReason: true },
      { content: 'no done marker', omitDone: true },
    ]);
    const first = await llm.complete({ messages: task });
    expect(first).toMatchObject({ content: 'no finish reason', finishReason: 'stop' });
    const second = await llm.complete({ messages: task });
    expect(second).toMatchObject({ content: 'no done marker', finishReason: 'stop' });
    expect(server!.requests).toHaveLength(2);
  });

  it('a model that writes "data: [DONE]" in its text does not make a cut stream complete', async () => {
    const llm = await setup([
      { content: 'line one\ndata: [DONE]\nline three', chunkSize: 64, endAfterChunks: 2 },
      reply.text('again'),
    ]);
    expect((await llm.complete({ messages: task })).content).toBe('again');
  });
});

describe('watchStreamEnd', () => {
  async function watch(chunks: string[], contentType = 'text/event-stream'): Promise<boolean> {
    const inner = (() =>
      Promise.resolve(
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
              controller.close();
            },
          }),
          { headers: { 'content-type': contentType } },
        ),
      )) as typeof fetch;
    const response = await watchStreamEnd(inner)('http://x');
    await response.text();
    return streamSaidDone(response);
  }

  it('sees the marker at a line start, also when a chunk boundary splits it', async () => {
    expect(await watch(['data: {"a":1}\n\n', 'data: [DONE]\n\n'])).toBe(true);
    expect(await watch(['data: {"a":1}\n\ndata: [DO', 'NE]\n\n'])).toBe(true);
    expect(await watch(['data: {"a":1}\n', '\nd', 'ata:[DONE]\n\n'])).toBe(true);
    expect(await watch(['data: [DONE]\n\n'])).toBe(true);
  });

  it('does not see it inside a line, or when it never came', async () => {
    expect(await watch(['data: {"t":"x data: [DONE]"}\n\n'])).toBe(false);
    expect(await watch(['data: {"a":1}\n\n'])).toBe(false);
    expect(await watch(['data: [DONE]\n\n'], 'application/json')).toBe(false);
  });
});
