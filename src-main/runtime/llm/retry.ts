/**
 * Our own retry loop around model calls (the SDK runs with `maxRetries: 0`): its backoff
 * sleep ignores the abort signal (openai-node#2580, measured 3 s after a stop), and it
 * retries whatever its rules say. Here a stop ends the wait at once, only RETRYABLE and
 * RATE_LIMIT errors are retried, Retry-After is honoured up to a cap, and every retry is
 * announced so it can be shown (`llm.retried`).
 */
import { abortError, abortableSleep } from '../util/abort';
import { LlmError } from './llm-error';
import type { RetryNotice } from './llm-client';

export interface RetryPolicy {
  /** retries after the first attempt */
  maxRetries: number;
  /** first backoff without Retry-After; doubles per attempt */
  baseDelayMs: number;
  /** cap of the exponential backoff */
  maxDelayMs: number;
  /** a Retry-After longer than this is not waited for: the call fails and says why */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 4,
  baseDelayMs: 1_000,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
};

/**
 * Reads `retry-after-ms`, then `retry-after` as seconds (fractions allowed) or an HTTP
 * date. Returns undefined when absent or unreadable: a negative number, a number with a
 * unit or any other text is not a wait time (issue 12 item 5: `retry-after: -5` went
 * through Date.parse, which reads "-5" as a year, and was retried with no wait at all).
 */
export function parseRetryAfter(
  headers: { get(name: string): string | null } | undefined,
  now: number = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms')?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Math.round(Number(ms));
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  // An HTTP date names its weekday or month (RFC 9110 5.6.7); a bare number never is one.
  if (!/[A-Za-z]{3}/.test(value)) return undefined;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Backoff without Retry-After: exponential with jitter in [50 %, 100 %] of the step. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(step / 2 + (random() * step) / 2);
}

/**
 * The delay before retry number `attempt` (1-based), or null when the error must not be
 * retried. A Retry-After is waited in full, plus up to 10 % jitter so clients that were
 * told the same moment do not all come back at once; a Retry-After shorter than our own
 * backoff's floor (0, or a date in the past) does not make us retry sooner than that.
 */
export function retryDelay(
  error: LlmError,
  attempt: number,
  policy: RetryPolicy,
  random = Math.random,
): number | null {
  if (!error.retryable || attempt > policy.maxRetries) return null;
  if (error.retryAfterMs !== undefined) {
    if (error.retryAfterMs > policy.maxRetryAfterMs) return null;
    const floor = backoffDelay(attempt, policy, () => 0);
    return Math.round(Math.max(error.retryAfterMs, floor) * (1 + random() * 0.1));
  }
  return backoffDelay(attempt, policy, random);
}

export async function withRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  options: {
    policy: RetryPolicy;
    signal?: AbortSignal;
    onRetry?: (notice: RetryNotice) => void;
    random?: () => number;
  },
): Promise<T> {
  const { policy, signal } = options;
  for (let n = 1; ; n++) {
    if (signal?.aborted) throw abortError(signal);
    try {
      return await attempt(n);
    } catch (error) {
      if (signal?.aborted || !(error instanceof LlmError)) throw error;
      const delay = retryDelay(error, n, policy, options.random);
      if (delay === null) throw exhausted(error, n, policy);
      options.onRetry?.({ attempt: n, status: error.status, delayMs: delay, error: error.message });
      await abortableSleep(delay, signal);
    }
  }
}

/** Says why retrying stopped, so "rate limited" reads differently from "gave up". */
function exhausted(error: LlmError, attempts: number, policy: RetryPolicy): LlmError {
  if (!error.retryable) return error;
  const tooLong =
    error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxRetryAfterMs
      ? ` The provider asked to wait ${Math.round(error.retryAfterMs / 1000)} s, longer than the ${Math.round(policy.maxRetryAfterMs / 1000)} s this app waits on its own; try again later.`
      : '';
  const prefix = error.kind === 'RATE_LIMIT' ? 'Rate limited: ' : '';
  const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`;
  const wrapped = new LlmError(
    error.kind,
    `${prefix}${error.message} (gave up after ${tries}).${tooLong}`,
    {
      status: error.status,
      ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
      cause: error,
    },
  );
  wrapped.partialContent = error.partialContent;
  return wrapped;
}
