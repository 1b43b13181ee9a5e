/**
 * Issue 26 item 9: errors that look like a rate limit or a bad key but are neither. A 429
 * `insufficient_quota` was retried three times and reported as "Rate limited … gave up";
 * a 403 for a model the project may not use said to check the API key. Against the
 * scripted server, over HTTP and inside a 200 stream.
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

let server: ScriptedOpenAiServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const task: Message[] = [{ role: 'user', content: 'say hi' }];

async function failureOf(script: ServerScript): Promise<LlmError> {
  const started = await startScriptedServer(script);
  server = started.server;
  const llm = new OpenAiLlm(testProfile(started.baseUrl, { maxRetries: 3 }), {
    retry: FAST_RETRY,
  });
  const notices: RetryNotice[] = [];
  const error = await llm.complete({ messages: task }, { onRetry: (n) => notices.push(n) }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(notices).toEqual([]);
  expect(server.requests).toHaveLength(1);
  expect(error).toBeInstanceOf(LlmError);
  return error as LlmError;
}

describe('billing and model-access errors', () => {
  it('a 429 insufficient_quota is not retried and says it is about credit', async () => {
    const error = await failureOf([reply.quotaExceeded(), reply.text('never asked')]);
    expect(error.kind).toBe('QUOTA');
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/out of quota or credit \(429 insufficient_quota\)/);
    expect(error.message).toMatch(/billing settings/);
    expect(error.message).not.toMatch(/Rate limited|gave up/);
  });

  it('the same error sent inside a 200 stream is classified the same way', async () => {
    const error = await failureOf([
      {
        inBandError: {
          body: { message: 'You exceeded your current quota', code: 'insufficient_quota' },
        },
      },
      reply.text('never asked'),
    ]);
    expect(error.kind).toBe('QUOTA');
    expect(error.message).toMatch(/sent inside the 200 stream/);
  });

  it('a rate limit is still retried', async () => {
    const started = await startScriptedServer([reply.rateLimited('0'), reply.text('ok')]);
    server = started.server;
    const llm = new OpenAiLlm(testProfile(started.baseUrl), { retry: FAST_RETRY });
    expect((await llm.complete({ messages: task })).content).toBe('ok');
  });

  it('a 403 for a model the project may not use names the model, not the key', async () => {
    const error = await failureOf([reply.modelNotAllowed('gpt-test')]);
    expect(error.kind).toBe('CONFIG');
    expect(error.message).toMatch(/may not use model "gpt-test" \(403\)/);
    expect(error.message).not.toMatch(/rejected the API key/);
  });

  it('a plain 403 is still a key problem', async () => {
    const error = await failureOf([
      { error: { status: 403, body: { error: { message: 'Forbidden', type: 'forbidden' } } } },
    ]);
    expect(error.kind).toBe('AUTH');
  });
});
