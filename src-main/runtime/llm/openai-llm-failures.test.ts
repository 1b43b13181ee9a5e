/**
 * How the OpenAI client fails, against the scripted server (reliability.md 5, L4-L9):
 * what is retried and how long it waits, what is never retried, stops during a wait or
 * a stream, hung endpoints, mid-stream failures, context-length wordings, bad endpoints.
 */
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '@shared/domain/message';
import { CancelledError } from '../util/abort';
import type { RetryNotice } from './llm-client';
import { LlmError } from './llm-errors';
import { OpenAiLlm } from './openai-llm';
import { CONTEXT_LENGTH_ERRORS } from './testing/openai-wire';
import { FAST_RETRY, testProfile } from './testing/profiles';
import {
  startScriptedServer,
  type ScriptedOpenAiServer,
  type ServerScript,
} from './testing/scripted-openai-server';
import { reply } from './testing/scripted-replies';
import type { LlmProfile } from '../config/schema';

let server: ScriptedOpenAiServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const task: Message[] = [{ role: 'user', content: 'say hi' }];

async function setup(script: ServerScript, overrides: Partial<LlmProfile> = {}) {
  const started = await startScriptedServer(script);
  server = started.server;
  const llm = new OpenAiLlm(testProfile(started.baseUrl, overrides), { retry: FAST_RETRY });
  return { llm, baseUrl: started.baseUrl };
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

describe('retries', () => {
  it('retries a 500 and succeeds, announcing the retry', async () => {
    const { llm } = await setup([reply.serverError(500), reply.text('recovered')]);
    const notices: RetryNotice[] = [];
    const response = await llm.complete({ messages: task }, { onRetry: (n) => notices.push(n) });
    expect(response.content).toBe('recovered');
    expect(notices).toEqual([
      {
        attempt: 1,
        status: 500,
        delayMs: expect.any(Number),
        error: expect.stringContaining('500'),
      },
    ]);
  });

  it('gives up on a persistent 500 after max_retries + 1 attempts', async () => {
    const { llm } = await setup(() => reply.serverError(503), { maxRetries: 3 });
    const error = await failure(llm.complete({ messages: task }));
    expect(error.kind).toBe('RETRYABLE');
    expect(error.message).toMatch(/503.*gave up after 4 attempts/);
    expect(server!.requests).toHaveLength(4);
  });

  it('L4: 429 with retry-after 2 waits at least 2 s each time, then fails as rate limited', async () => {
    const { llm } = await setup(() => reply.rateLimited('2'), { maxRetries: 1 });
    const notices: RetryNotice[] = [];
    const error = await failure(
      llm.complete({ messages: task }, { onRetry: (n) => notices.push(n) }),
    );
    expect(server!.requests).toHaveLength(2);
    const [first, second] = server!.requests;
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(2000);
    expect(notices[0]).toMatchObject({ status: 429, delayMs: expect.any(Number) });
    expect(notices[0]!.delayMs).toBeGreaterThanOrEqual(2000);
    expect(error.kind).toBe('RATE_LIMIT');
    expect(error.message).toMatch(/^Rate limited/);
  });

  it('L4: a retry-after of 120 s is not silently shortened: it fails at once and says why', async () => {
    const { llm } = await setup(() => reply.rateLimited('120'));
    const error = await failure(llm.complete({ messages: task }));
    expect(server!.requests).toHaveLength(1);
    expect(error.kind).toBe('RATE_LIMIT');
    expect(error.message).toContain('asked to wait 120 s');
  });

  it('honours retry-after-ms and an HTTP-date retry-after', async () => {
    const date = new Date(Date.now() + 3000).toUTCString();
    const { llm } = await setup([
      reply.rateLimited(undefined, { 'retry-after-ms': '300' }),
      reply.rateLimited(date),
      reply.text('ok'),
    ]);
    const notices: RetryNotice[] = [];
    await llm.complete({ messages: task }, { onRetry: (n) => notices.push(n) });
    expect(notices[0]!.delayMs).toBeGreaterThanOrEqual(300);
    expect(notices[0]!.delayMs).toBeLessThan(400);
    // HTTP dates have a resolution of 1 s
    expect(notices[1]!.delayMs).toBeGreaterThanOrEqual(1500);
  });

  it('fixes openmanus 7.2 item 1: 400, 401, 403, 404 and context-length errors are never retried', async () => {
    const cases: [ServerScript, string][] = [
      [[{ error: { status: 400 } }], 'UNKNOWN'],
      [[reply.unauthorized()], 'AUTH'],
      [[{ error: { status: 403 } }], 'AUTH'],
      [[{ error: { status: 404 } }], 'CONFIG'],
      [[reply.contextLength('openai')], 'CONTEXT_LIMIT'],
    ];
    for (const [script, kind] of cases) {
      const { llm } = await setup(script, { maxRetries: 4 });
      const error = await failure(llm.complete({ messages: task }));
      expect(error.kind, kind).toBe(kind);
      expect(server!.requests, kind).toHaveLength(1);
      await server!.close();
    }
  });

  it('L8: context overflow in six providers’ wordings is CONTEXT_LIMIT, not retried, and says what to do', async () => {
    for (const provider of Object.keys(
      CONTEXT_LENGTH_ERRORS,
    ) as (keyof typeof CONTEXT_LENGTH_ERRORS)[]) {
      const { llm } = await setup([reply.contextLength(provider)], { maxRetries: 3 });
      const error = await failure(llm.complete({ messages: task }));
      expect(error.kind, provider).toBe('CONTEXT_LIMIT');
      expect(error.message, provider).toContain('max_messages');
      expect(server!.requests, provider).toHaveLength(1);
      await server!.close();
    }
  });
});

describe('stopping', () => {
  /** Runs a call, stops it via `arm(stop)`, and returns how long the stop took to end it. */
  async function stopLatency(
    llm: OpenAiLlm,
    arm: (stop: () => void) => Partial<Parameters<OpenAiLlm['complete']>[1]>,
  ): Promise<number> {
    const controller = new AbortController();
    let stoppedAt = 0;
    const stop = () => {
      if (stoppedAt) return;
      stoppedAt = Date.now();
      controller.abort();
    };
    const error = await llm
      .complete({ messages: task }, { signal: controller.signal, ...arm(stop) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect(stoppedAt).toBeGreaterThan(0);
    return Date.now() - stoppedAt;
  }

  it('L5: a stop during a retry wait ends the call within a second, 3 times out of 3', async () => {
    // openai@6.49.0's own backoff ignores the signal: 3 s with retry-after 3 (openai-node#2580).
    const { llm } = await setup(() => reply.rateLimited('30'));
    for (let trial = 0; trial < 3; trial++) {
      const latency = await stopLatency(llm, (stop) => ({
        onRetry: () => setTimeout(stop, 100),
      }));
      expect(latency, `trial ${trial}`).toBeLessThan(1000);
    }
  });

  it('L5: a stop during a stream ends the call within a second and closes the connection, 3 times out of 3', async () => {
    const { llm } = await setup(() => ({
      content: 'x'.repeat(200),
      chunkSize: 2,
      chunkDelayMs: 100,
    }));
    for (let trial = 0; trial < 3; trial++) {
      const latency = await stopLatency(llm, (stop) => ({ onDelta: stop }));
      expect(latency, `trial ${trial}`).toBeLessThan(1000);
      await waitFor(() => server!.requests[trial]?.closedAt !== undefined);
      expect(server!.requests[trial]?.clientAborted).toBe(true);
    }
  });

  it('L5: a stop while waiting for the first byte ends the call within a second, 3 times out of 3', async () => {
    const { llm } = await setup(() => ({ hang: true }));
    for (let trial = 0; trial < 3; trial++) {
      const latency = await stopLatency(llm, (stop) => {
        setTimeout(stop, 150);
        return {};
      });
      expect(latency, `trial ${trial}`).toBeLessThan(1000);
    }
  });
});

describe('broken endpoints', () => {
  it('L6: a hung endpoint fails after timeout x attempts, as a timeout', async () => {
    const { llm } = await setup(() => ({ hang: true }), { timeoutMs: 400, maxRetries: 1 });
    const started = Date.now();
    const error = await failure(llm.complete({ messages: task }));
    const elapsed = Date.now() - started;
    expect(error.kind).toBe('RETRYABLE');
    expect(error.message).toMatch(/did not answer within 0.4 s.*gave up after 2 attempts/);
    expect(server!.requests).toHaveLength(2);
    expect(elapsed).toBeGreaterThanOrEqual(800);
    expect(elapsed).toBeLessThan(400 * 2 + 10_000);
  });

  it('a stream that stalls half-way fails instead of hanging for ever', async () => {
    // 1 s of silence after the first chunk; generous enough that a loaded machine does not
    // time out before the headers instead.
    const { llm } = await setup([{ content: 'abcdefgh', chunkSize: 2, chunkDelayMs: 30_000 }], {
      timeoutMs: 1000,
    });
    const error = await failure(llm.complete({ messages: task }));
    expect(error.kind).toBe('NETWORK_MIDSTREAM');
    expect(error.message).toMatch(/stalled/);
  });

  it('L7: a socket cut, an SSE error event and malformed SSE JSON each fail with their own message and keep the partial text', async () => {
    const cases: [ServerScript, RegExp][] = [
      [
        [{ content: 'partial answer text', chunkSize: 4, cutAfterChunks: 3 }],
        /connection to the model was lost/,
      ],
      [
        [
          {
            content: 'partial answer text',
            chunkSize: 4,
            sseError: { message: 'upstream overloaded', afterChunks: 3 },
          },
        ],
        /The provider failed \(500\): upstream overloaded \(sent inside the 200 stream\), after 8 characters/,
      ],
      [
        [{ content: 'partial answer text', chunkSize: 4, malformedSse: { afterChunks: 3 } }],
        /malformed data/,
      ],
    ];
    for (const [script, message] of cases) {
      const { llm } = await setup(script, { maxRetries: 3 });
      const error = await failure(llm.complete({ messages: task }));
      expect(error.kind).toBe('NETWORK_MIDSTREAM');
      expect(error.message).toMatch(message);
      expect(error.partialContent).toBe('partial ');
      expect(server!.requests).toHaveLength(1);
      await server!.close();
    }
  });

  it('L9: auth, model, connection, DNS, TLS, HTML and wrong-path failures are classified and not retried', async () => {
    const { llm: unauthorized } = await setup([reply.unauthorized()], { maxRetries: 3 });
    expect((await failure(unauthorized.complete({ messages: task }))).kind).toBe('AUTH');
    await server!.close();

    const { llm: forbidden } = await setup([{ error: { status: 403 } }], { maxRetries: 3 });
    expect((await failure(forbidden.complete({ messages: task }))).kind).toBe('AUTH');
    await server!.close();

    const { llm: noModel } = await setup([{ error: { status: 404 } }], { maxRetries: 3 });
    const missing = await failure(noModel.complete({ messages: task }));
    expect(missing.kind).toBe('CONFIG');
    expect(missing.message).toMatch(/model name and base_url/);
    await server!.close();

    const closedPort = await freePort();
    const refused = new OpenAiLlm(testProfile(`http://127.0.0.1:${closedPort}/v1`), {
      retry: FAST_RETRY,
    });
    const refusedError = await failure(refused.complete({ messages: task }));
    expect(refusedError.kind).toBe('CONFIG');
    expect(refusedError.message).toMatch(/connection refused/);

    const dns = new OpenAiLlm(testProfile('http://no-such-host.invalid/v1'), { retry: FAST_RETRY });
    const dnsError = await failure(dns.complete({ messages: task }));
    expect(dnsError.kind).toBe('CONFIG');
    expect(dnsError.message).toMatch(/resolve the host/);

    const { baseUrl: plainUrl } = await setup([reply.text('x')]);
    const tls = new OpenAiLlm(testProfile(plainUrl.replace('http:', 'https:')), {
      retry: FAST_RETRY,
    });
    const tlsError = await failure(tls.complete({ messages: task }));
    expect(tlsError.kind).toBe('CONFIG');
    expect(tlsError.message).toMatch(/TLS/);
    await server!.close();

    for (const stream of [true, false]) {
      const { llm: html } = await setup(() => ({ html: true }), { stream, maxRetries: 3 });
      const htmlError = await failure(html.complete({ messages: task }));
      expect(htmlError.kind).toBe('CONFIG');
      expect(htmlError.message).toMatch(/text\/html.*base_url/);
      expect(server!.requests).toHaveLength(1);
      await server!.close();
    }

    const { baseUrl } = await setup(() => reply.text('x'));
    const wrongPath = new OpenAiLlm(testProfile(baseUrl.replace(/\/v1$/, '/api')), {
      retry: FAST_RETRY,
    });
    expect((await failure(wrongPath.complete({ messages: task }))).kind).toBe('CONFIG');
    expect(server!.requests).toHaveLength(0);
  });

  it('a non-streamed answer cut off mid-body is retried (the whole answer can be asked for again)', async () => {
    const { llm } = await setup(
      [{ content: 'x'.repeat(500), cutAfterChunks: 1 }, reply.text('whole')],
      {
        stream: false,
      },
    );
    const notices: RetryNotice[] = [];
    const response = await llm.complete({ messages: task }, { onRetry: (n) => notices.push(n) });
    expect(response.content).toBe('whole');
    expect(notices[0]?.error).toMatch(/broke before the answer was complete/);
  });

  it('an empty choices list is a clear error, not a crash', async () => {
    for (const stream of [true, false]) {
      const { llm } = await setup([{ emptyChoices: true }], { stream });
      const error = await failure(llm.complete({ messages: task }));
      expect(error.message).toMatch(/empty "choices" list/);
      await server!.close();
    }
  });

  it('E12: the API key appears in no error message, even when the provider echoes it', async () => {
    const key = 'sk-sentinel-0a1b2c3d4e5f';
    const { llm } = await setup(
      [
        {
          error: {
            status: 401,
            body: {
              error: { message: `Incorrect API key provided: ${key}`, code: 'invalid_api_key' },
            },
          },
        },
      ],
      { apiKey: key },
    );
    const error = await failure(llm.complete({ messages: task }));
    expect(error.kind).toBe('AUTH');
    expect(error.message).not.toContain(key);
    expect(JSON.stringify({ message: error.message, stack: error.stack })).not.toContain(key);
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function waitFor(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
