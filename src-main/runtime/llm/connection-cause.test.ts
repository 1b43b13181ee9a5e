/**
 * Issue 17 item 6: a failed connection is reported with its real cause, the same words in
 * a run (the model client) and in Test connection, against real sockets.
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '@shared/domain/message';
import { testConnection } from '../config/connection-test';
import type { RetryNotice } from './llm-client';
import { LlmError } from './llm-errors';
import { OpenAiLlm } from './openai-llm';
import { FAST_RETRY, testProfile } from './testing/profiles';
import { startScriptedServer } from './testing/scripted-openai-server';
import { reply } from './testing/scripted-replies';

const task: Message[] = [{ role: 'user', content: 'say hi' }];

async function failureOf(llm: OpenAiLlm): Promise<{ error: LlmError; retries: RetryNotice[] }> {
  const retries: RetryNotice[] = [];
  const error = await llm.complete({ messages: task }, { onRetry: (n) => retries.push(n) }).then(
    () => {
      throw new Error('the call should have failed');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LlmError);
  return { error: error as LlmError, retries };
}

/** A port where the project's scripted server answered a moment ago, and nothing does now. */
async function closedPortUrl(): Promise<string> {
  const { server, baseUrl } = await startScriptedServer([reply.text('hello')]);
  await server.close();
  return baseUrl;
}

describe('connection failures name their cause (issue 17 item 6)', () => {
  it('a refused connection: "nothing is listening", the profile, not retried', async () => {
    const baseUrl = await closedPortUrl();
    const llm = new OpenAiLlm(testProfile(baseUrl, { name: 'local', maxRetries: 3 }), {
      retry: FAST_RETRY,
    });
    const { error, retries } = await failureOf(llm);
    expect(error.kind).toBe('CONFIG');
    expect(error.message).toContain(`Nothing is listening at ${baseUrl} (connection refused)`);
    expect(error.message).toMatch(/is the server running\? Or check base_url of profile "local"/);
    expect(retries).toHaveLength(0);

    const tested = await testConnection(testProfile(baseUrl, { name: 'local' }));
    expect(tested.ok).toBe(false);
    expect(tested.message).toContain(`Nothing is listening at ${baseUrl} (connection refused)`);
  });

  it('port 9 (a fetch "bad port", the issue\'s example): said so, not retried as a generic network error', async () => {
    const baseUrl = 'http://127.0.0.1:9/v1';
    const llm = new OpenAiLlm(testProfile(baseUrl, { name: 'local', maxRetries: 3 }), {
      retry: FAST_RETRY,
    });
    const { error, retries } = await failureOf(llm);
    // Before: RETRYABLE, 'Network error talking to http://127.0.0.1:9/v1 ...', 3 retries.
    expect(error.message).not.toMatch(/Network error/);
    expect(error.message).toMatch(/uses port 9, which Node's fetch refuses to connect to/);
    expect(error.message).toMatch(/base_url of profile "local"/);
    expect(error.kind).toBe('CONFIG');
    expect(retries).toHaveLength(0);

    const tested = await testConnection(testProfile(baseUrl, { name: 'local' }));
    expect(tested.message).toMatch(/uses port 9/);
  });

  it('an unknown host: the name could not be resolved', async () => {
    const llm = new OpenAiLlm(testProfile('http://no-such-host.invalid/v1', { name: 'far' }), {
      retry: FAST_RETRY,
    });
    const { error } = await failureOf(llm);
    expect(error.kind).toBe('CONFIG');
    expect(error.message).toMatch(
      /Could not resolve the host name "no-such-host.invalid" .*\(ENOTFOUND\): check base_url of profile "far"/,
    );
  });

  it('https to a plain-http server: a TLS error, from the scripted server', async () => {
    const { server, baseUrl } = await startScriptedServer([reply.text('x')]);
    try {
      const llm = new OpenAiLlm(testProfile(baseUrl.replace('http:', 'https:')), {
        retry: FAST_RETRY,
      });
      const { error } = await failureOf(llm);
      expect(error.kind).toBe('CONFIG');
      expect(error.message).toMatch(/^TLS error talking to https:/);
    } finally {
      await server.close();
    }
  });
});
