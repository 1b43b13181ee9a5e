import { describe, expect, it } from 'vitest';
import { classifyError, displayUrl, LlmError, redactSecrets } from './llm-errors';
import {
  backoffDelay,
  parseRetryAfter,
  retryDelay,
  withRetries,
  DEFAULT_RETRY_POLICY,
} from './retry';
import { CancelledError } from '../util/abort';

const headers = (entries: Record<string, string>) => new Headers(entries);
const policy = { ...DEFAULT_RETRY_POLICY, maxRetries: 3 };

describe('retry policy', () => {
  it('reads retry-after-ms, retry-after seconds and HTTP dates', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250' }), now)).toBe(250);
    expect(parseRetryAfter(headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(parseRetryAfter(headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }), now)).toBe(
      5000,
    );
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(headers({}), now)).toBeUndefined();
  });

  it('backs off exponentially with jitter, capped', () => {
    expect(backoffDelay(1, policy, () => 0)).toBe(500);
    expect(backoffDelay(1, policy, () => 1)).toBe(1000);
    expect(backoffDelay(3, policy, () => 1)).toBe(4000);
    expect(backoffDelay(10, policy, () => 1)).toBe(policy.maxDelayMs);
  });

  it('waits a Retry-After in full and refuses one above the cap', () => {
    const limited = (ms: number) =>
      new LlmError('RATE_LIMIT', 'rate limited', { status: 429, retryAfterMs: ms });
    expect(retryDelay(limited(2000), 1, policy, () => 0)).toBe(2000);
    expect(retryDelay(limited(2000), 1, policy, () => 1)).toBe(2200);
    expect(retryDelay(limited(120_000), 1, policy)).toBeNull();
    expect(retryDelay(limited(10), 4, policy)).toBeNull();
    expect(retryDelay(new LlmError('AUTH', 'no'), 1, policy)).toBeNull();
  });

  it('stops waiting as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = withRetries(
      async () => {
        throw new LlmError('RETRYABLE', 'boom', { retryAfterMs: 30_000 });
      },
      { policy, signal: controller.signal, onRetry: () => controller.abort() },
    );
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('masks keys in provider texts', () => {
    expect(redactSecrets('key sk-abcdef123456 and Bearer abcdefghijkl', '')).toBe(
      'key sk-[redacted] and Bearer [redacted]',
    );
    expect(redactSecrets('your key mysecretvalue was wrong', 'mysecretvalue')).toBe(
      'your key [redacted] was wrong',
    );
  });

  it('shows URLs without credentials or query', () => {
    expect(displayUrl('https://user:secret@example.com/v1?key=abc')).toBe('https://example.com/v1');
    expect(displayUrl('http://127.0.0.1:8080/v1/')).toBe('http://127.0.0.1:8080/v1');
  });

  it('classifies unknown throwables as UNKNOWN with a message', () => {
    const error = classifyError(new TypeError('weird'), {
      profileName: 'p',
      model: 'm',
      baseUrl: 'http://x',
      apiKey: '',
    });
    expect(error.kind).toBe('UNKNOWN');
    expect(error.message).toBe('Model call failed: weird');
  });
});
