/**
 * What a model endpoint cannot make the client do (issue 12 item 5), against the scripted
 * server through the real `openai` SDK: trickle a stream for ever, make it retry with no
 * wait (negative Retry-After), or fill memory with one reply.
 */
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '@shared/domain/message';
import type { LlmProfile } from '../config/schema';
import type { RetryNotice } from './llm-client';
import { LlmError } from './llm-errors';
import { OpenAiLlm } from './openai-llm';
import { cappedFetch, MAX_REPLY_CHARS, ReplyTooLargeError } from './reply-limits';
import { DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelay } from './retry';
import { testProfile } from './testing/profiles';
import {
  startScriptedServer,
  type ScriptedOpenAiServer,
  type ServerScript,
} from './testing/scripted-openai-server';
import { reply } from './testing/scripted-replies';

let server: ScriptedOpenAiServer | null = null;
const rawServers: Server[] = [];
afterEach(async () => {
  await server?.close();
  server = null;
  for (const s of rawServers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

const task: Message[] = [{ role: 'user', content: 'say hi' }];

async function setup(
  script: ServerScript,
  overrides: Partial<LlmProfile> = {},
  retry: { baseDelayMs: number; maxDelayMs: number } = { baseDelayMs: 20, maxDelayMs: 100 },
) {
  const started = await startScriptedServer(script);
  server = started.server;
  return new OpenAiLlm(testProfile(started.baseUrl, overrides), { retry });
}

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LlmError);
  return error as LlmError;
}

describe('a stream that trickles', () => {
  it('ends at the attempt deadline, although a chunk arrives every 150 ms', async () => {
    // 400 one-character chunks, 150 ms apart: 60 s if nothing ends it; the idle gap is
    // far below the timeout, so only a total deadline can.
    const llm = await setup([{ content: 'x'.repeat(400), chunkSize: 1, chunkDelayMs: 150 }], {
      timeoutMs: 1_500,
      maxRetries: 2,
    });
    const started = performance.now();
    const error = await failure(llm.complete({ messages: task }));
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(1_500 + 4_000);
    expect(error.kind).toBe('NETWORK_MIDSTREAM');
    expect(error.message).toMatch(
      /did not finish its answer within 1.5 s .* too slowly \(\d+ characters so far\)/,
    );
    expect(error.partialContent?.length).toBeGreaterThan(0);
    expect(server!.requests).toHaveLength(1); // a half-sent answer is not asked again
  }, 20_000);
});

describe('Retry-After that is not a wait time', () => {
  it.each(['-5', '-0.5', '5s', '1e3', '', '  ', 'Infinity', 'NaN'])(
    'reads retry-after %j as absent',
    (value) => {
      expect(parseRetryAfter(new Headers({ 'retry-after': value }))).toBeUndefined();
    },
  );

  it('reads a negative retry-after-ms as absent and falls back to retry-after', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '-100', 'retry-after': '2' }))).toBe(
      2000,
    );
  });

  it('never retries sooner than its own backoff floor, whatever the provider says', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, maxRetries: 4 };
    const told = (ms: number) =>
      new LlmError('RATE_LIMIT', 'rate limited', { status: 429, retryAfterMs: ms });
    expect(retryDelay(told(0), 1, policy, () => 0)).toBe(500);
    expect(retryDelay(told(0), 3, policy, () => 0)).toBe(2000);
    expect(retryDelay(told(3000), 1, policy, () => 0)).toBe(3000);
  });

  it('backs off on a 429 with retry-after -5 instead of retrying at once', async () => {
    const llm = await setup(
      [reply.rateLimited('-5'), reply.rateLimited('-5'), reply.text('ok')],
      { maxRetries: 3 },
      { baseDelayMs: 400, maxDelayMs: 2_000 },
    );
    const notices: RetryNotice[] = [];
    const response = await llm.complete({ messages: task }, { onRetry: (n) => notices.push(n) });
    expect(response.content).toBe('ok');
    const [first, second, third] = server!.requests;
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(200);
    expect(third!.receivedAt - second!.receivedAt).toBeGreaterThanOrEqual(400);
    expect(notices.map((n) => n.delayMs >= 200)).toEqual([true, true]);
  });
});

describe('a reply too large to hold', () => {
  const huge = 'y'.repeat(MAX_REPLY_CHARS + 1024);

  it.each([true, false])('is refused, not retried (stream %s)', async (stream) => {
    const llm = await setup(() => ({ content: huge, chunkSize: 64 * 1024 }), {
      stream,
      maxRetries: 3,
    });
    const error = await failure(llm.complete({ messages: task }));
    expect(error.kind).toBe('UNKNOWN');
    expect(error.message).toMatch(/The model's reply was refused: it passed \d+ characters/);
    expect(error.partialContent).toBeUndefined();
    expect(server!.requests).toHaveLength(1);
  });

  it('refuses tool-call arguments past the cap too', async () => {
    const llm = await setup([
      { toolCalls: [{ name: 'bash', arguments: { command: huge } }], chunkSize: 64 * 1024 },
    ]);
    const error = await failure(llm.complete({ messages: task }));
    expect(error.message).toMatch(/reply was refused/);
  });

  it.each([true, false])('refuses a body past the byte cap (stream %s)', async (stream) => {
    const started = await startScriptedServer(() => ({
      content: 'z'.repeat(1_500_000),
      chunkSize: 16,
    }));
    server = started.server;
    const llm = new OpenAiLlm(testProfile(started.baseUrl, { stream, maxRetries: 2 }), {
      maxReplyBytes: 4 * 1024 * 1024,
    });
    const error = await failure(llm.complete({ messages: task }));
    // The stream is cut at 4 MB on the wire (16 characters per piece: ~19 MB of events);
    // a JSON body at a quarter of that.
    expect(error.message).toMatch(/reply was refused: the response was larger than (4|1) MB/);
    expect(error.message).toContain(stream ? '4 MB' : '1 MB');
    expect(server.requests).toHaveLength(1);
  });

  it('stops reading a body at the byte cap instead of buffering it', async () => {
    let written = 0;
    let isClosedEarly = false;
    const raw = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (written < 50 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => (isClosedEarly = written < 50 * 1024 * 1024));
      pump();
    });
    rawServers.push(raw);
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const port = (raw.address() as { port: number }).port;
    const limited = cappedFetch(1024 * 1024);
    const response = await limited(`http://127.0.0.1:${port}/`);
    await expect(response.text()).rejects.toBeInstanceOf(ReplyTooLargeError);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(isClosedEarly).toBe(true);
    expect(written).toBeLessThan(20 * 1024 * 1024);
  });

  it('refuses a body whose declared length is over the cap before reading it', async () => {
    const raw = createServer((_req, res) => {
      res.writeHead(200, { 'content-length': String(2 * 1024 * 1024) });
      res.end(Buffer.alloc(2 * 1024 * 1024));
    });
    rawServers.push(raw);
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const port = (raw.address() as { port: number }).port;
    await expect(cappedFetch(1024 * 1024)(`http://127.0.0.1:${port}/`)).rejects.toBeInstanceOf(
      ReplyTooLargeError,
    );
  });
});
