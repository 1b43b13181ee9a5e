/**
 * Errors a server sends inside a 200 answer instead of as an HTTP status: a `data:
 * {"error": ...}` line in a stream (LiteLLM, OpenRouter, vLLM, mock servers; the SDK
 * throws them as an APIError without a status), or a 200 JSON body that is only an
 * error. They used to be reported as "an error in the middle of its answer" whatever
 * they said, never retried (issue 16 item 5). Here the status is read from the error
 * itself (a numeric `code` or `status`, or a well-known `type`/`code` name) and the
 * error is classified like the HTTP one: 401 says to check the key, 429 and 5xx are
 * retried (when nothing was streamed yet), context-length errors say what to lower.
 */
import { APIError } from 'openai';
import { classifyError, LlmError, midStreamError, type ErrorContext } from './llm-errors';

type ErrorBody = Record<string, unknown>;

/** Names providers put in `type` or `code`, and the HTTP status they stand for. */
const STATUS_BY_NAME: Record<string, number> = {
  context_length_exceeded: 400,
  invalid_request_error: 400,
  invalid_api_key: 401,
  authentication_error: 401,
  invalid_authentication: 401,
  unauthorized: 401,
  permission_error: 403,
  model_not_allowed: 403,
  permission_denied: 403,
  forbidden: 403,
  not_found_error: 404,
  model_not_found: 404,
  rate_limit_exceeded: 429,
  rate_limit_error: 429,
  too_many_requests: 429,
  insufficient_quota: 429,
  server_error: 500,
  api_error: 500,
  internal_error: 500,
  internal_server_error: 500,
  service_unavailable: 503,
  overloaded_error: 529,
  timeout: 504,
};

function statusOf(body: ErrorBody): number | undefined {
  for (const key of ['status', 'code', 'status_code']) {
    const value = body[key];
    const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
    if (Number.isInteger(n) && n >= 400 && n <= 599) return n;
  }
  for (const key of ['code', 'type']) {
    const value = body[key];
    if (typeof value === 'string') {
      const status = STATUS_BY_NAME[value.toLowerCase()];
      if (status !== undefined) return status;
    }
  }
  return undefined;
}

function asBody(value: unknown): ErrorBody | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as ErrorBody)
    : undefined;
}

/** The HTTP-style error an in-band error body stands for, or undefined when it says no status. */
function asHttpError(body: ErrorBody, headers?: Headers): APIError | undefined {
  const status = statusOf(body);
  if (status === undefined) return undefined;
  const message = typeof body['message'] === 'string' ? body['message'] : undefined;
  return APIError.generate(status, { error: body }, message, headers ?? new Headers());
}

/**
 * A failure while reading a stream. An in-band error with a status is classified like
 * the HTTP error; when text had already been streamed it is not retried (the text was
 * shown), but its message still says what happened. Anything else is a mid-stream break.
 */
export function streamFailure(error: unknown, ctx: ErrorContext, received: number): LlmError {
  if (error instanceof APIError && error.status === undefined) {
    const body = asBody(error.error);
    const http = body ? asHttpError(body, error.headers) : undefined;
    if (http) {
      const classified = classifyError(http, ctx);
      const inBand = `${classified.message} (sent inside the 200 stream)`;
      if (received === 0 || !classified.retryable) {
        return new LlmError(classified.kind, inBand, {
          status: classified.status,
          ...(classified.retryAfterMs !== undefined
            ? { retryAfterMs: classified.retryAfterMs }
            : {}),
          cause: error,
        });
      }
      return new LlmError(
        'NETWORK_MIDSTREAM',
        `${inBand}, after ${received} characters of the answer; not retried, the text so far is kept.`,
        { status: classified.status, cause: error },
      );
    }
  }
  return midStreamError(error, ctx, received);
}

/** A 200 JSON answer that is only `{"error": {...}}`: the error it carries, classified. */
export function bodyFailure(data: unknown, ctx: ErrorContext): LlmError | undefined {
  const body = asBody(asBody(data)?.['error']);
  if (!body || Array.isArray(asBody(data)?.['choices'])) return undefined;
  const http = asHttpError(body);
  if (http) {
    const classified = classifyError(http, ctx);
    return new LlmError(classified.kind, `${classified.message} (sent with status 200)`, {
      status: classified.status,
    });
  }
  const message = typeof body['message'] === 'string' ? body['message'] : JSON.stringify(body);
  return new LlmError(
    'UNKNOWN',
    `The provider answered with an error (status 200): ${message.slice(0, 500)}`,
  );
}
