/**
 * What can go wrong with a model call, in the classes of reliability.md 3.2 (e), each
 * with a message a user can act on. Classification goes by shape, not only by
 * `instanceof APIError`: a stream cut by the network is a bare `TypeError: terminated`,
 * malformed SSE JSON a `SyntaxError`, and an SSE `error` event an APIError without status.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';

export { LLM_ERROR_KINDS, LlmError, type LlmErrorKind } from './llm-error';
import { LlmError } from './llm-error';
import { explainConnectionFailure } from '../util/connection-cause';

/** What the classifier needs to word its messages; never the key itself in output. */
export interface ErrorContext {
  profileName: string;
  model: string;
  baseUrl: string;
  /** the key, only to scrub it from provider texts */
  apiKey: string;
}

/**
 * Strings that look like the configured key, or any bearer/sk- token, are masked: a
 * provider may echo the key in its error text, and errors end up in events and logs.
 */
export function redactSecrets(text: string, apiKey = ''): string {
  let out = text;
  if (apiKey.length >= 4) out = out.split(apiKey).join('[redacted]');
  return out
    .replace(/\b(sk|pk|rk)-[A-Za-z0-9_*.-]{6,}/g, '$1-[redacted]')
    .replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, '$1[redacted]');
}

/** A URL fit for messages: no user:password part and no query (keys sometimes travel there). */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return redactSecrets(url);
  }
}

/** Wordings of a context-window overflow across OpenAI-compatible providers (reliability L8). */
const CONTEXT_PATTERNS = [
  /context_length_exceeded/i,
  /maximum context length/i,
  /context length exceeded/i,
  /prompt is too long/i,
  /input length and `?max_tokens`? exceed context limit/i,
  /please reduce the length of/i,
  /exceeds the available context size/i,
  /exceed_context_size/i,
  /too large for model with \d+ maximum context length/i,
  /context window/i,
];

export function looksLikeContextLimit(text: string): boolean {
  return CONTEXT_PATTERNS.some((p) => p.test(text));
}

const RETRYABLE_NET_CODES = new Set([
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** The first `code` on an error's cause chain (undici wraps the system error twice). */
export function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function providerText(error: APIError, ctx: ErrorContext): string {
  const body = error.error as { message?: unknown } | undefined;
  const raw = typeof body?.message === 'string' ? body.message : error.message;
  return redactSecrets(raw, ctx.apiKey).slice(0, 500);
}

/** A 429 that is about money, not pace: OpenAI's `insufficient_quota` and its wordings. */
function isQuotaError(code: string, type: string, text: string): boolean {
  return (
    /insufficient_quota|billing_hard_limit|quota_exceeded/i.test(`${code} ${type}`) ||
    /exceeded your current quota|insufficient (credit|balance|quota)|check your plan and billing/i.test(
      text,
    )
  );
}

/** A 403 that names the model, not the key (`model_not_allowed`, "does not have access to model"). */
function isModelNotAllowed(code: string, type: string, text: string): boolean {
  return (
    /model_not_allowed|model_not_permitted|unsupported_model/i.test(`${code} ${type}`) ||
    /(does not have|has no) access to (the )?model|not allowed to (use|access) (the )?model/i.test(
      text,
    )
  );
}

/** Turns anything thrown by the SDK or fetch into an LlmError (not for aborts). */
export function classifyError(error: unknown, ctx: ErrorContext, retryAfterMs?: number): LlmError {
  if (error instanceof LlmError) return error;
  const where = `${ctx.baseUrl} (profile "${ctx.profileName}", model "${ctx.model}")`;
  if (error instanceof APIConnectionTimeoutError) {
    return new LlmError('RETRYABLE', `The model did not answer in time: ${where}`, {
      cause: error,
    });
  }
  if (error instanceof APIConnectionError) {
    // util/connection-cause.ts: the same words as Test connection, naming the real cause
    const failure = explainConnectionFailure(error, {
      baseUrl: ctx.baseUrl,
      profileName: ctx.profileName,
    });
    return new LlmError(
      failure.retryable ? 'RETRYABLE' : 'CONFIG',
      `${redactSecrets(failure.message, ctx.apiKey).replace(/\.$/, '')} (model "${ctx.model}").`,
      { cause: error },
    );
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    const text = providerText(error, ctx);
    const code = typeof error.code === 'string' ? error.code : '';
    const type = typeof error.type === 'string' ? error.type : '';
    if (status === 429 && isQuotaError(code, type, text)) {
      // issue 26 item 9: a billing error, retried as a rate limit ("gave up after 3 attempts")
      return new LlmError(
        'QUOTA',
        `The account behind profile "${ctx.profileName}" is out of quota or credit (429 insufficient_quota): ${text}. Add credit or raise the limit in the provider's billing settings, or use another profile; retrying will not help.`,
        { status, cause: error },
      );
    }
    if (status === 429) {
      return new LlmError('RATE_LIMIT', `Rate limited by the provider (429): ${text}`, {
        status,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        cause: error,
      });
    }
    if (status === 403 && isModelNotAllowed(code, type, text)) {
      return new LlmError(
        'CONFIG',
        `The key of profile "${ctx.profileName}" works but may not use model "${ctx.model}" (403): ${text}. Pick a model this key's project can use, or allow the model for it in the provider's settings.`,
        { status, cause: error },
      );
    }
    if (status === 401 || status === 403) {
      return new LlmError(
        'AUTH',
        `The provider rejected the API key of profile "${ctx.profileName}" (${status}): ${text}. Check api_key in the config ([llm] or [llm.${ctx.profileName}]).`,
        { status, cause: error },
      );
    }
    if (status === 404) {
      return new LlmError(
        'CONFIG',
        `Not found (404) at ${where}: check the model name and base_url. Provider said: ${text}`,
        { status, cause: error },
      );
    }
    if (looksLikeContextLimit(`${code} ${text}`)) {
      return new LlmError(
        'CONTEXT_LIMIT',
        `The conversation no longer fits the model's context window (${status}): ${text}. Lower max_messages or max_observe for this agent, or use a model with a larger context.`,
        { status, cause: error },
      );
    }
    if (status === 408 || status === 409 || status >= 500) {
      return new LlmError('RETRYABLE', `The provider failed (${status}): ${text}`, {
        status,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        cause: error,
      });
    }
    return new LlmError('UNKNOWN', `The provider rejected the request (${status}): ${text}`, {
      status,
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  // A body cut before it was complete (`TypeError: terminated` from undici) or a reset
  // socket: a whole response can simply be asked for again.
  const code = causeCode(error);
  if (message === 'terminated' || (code !== undefined && RETRYABLE_NET_CODES.has(code))) {
    return new LlmError(
      'RETRYABLE',
      `The connection to ${where} broke before the answer was complete${code ? ` (${code})` : ''}`,
      { cause: error },
    );
  }
  return new LlmError('UNKNOWN', `Model call failed: ${redactSecrets(message, ctx.apiKey)}`, {
    cause: error,
  });
}

/** A failure after the stream had started: never retried (the text was already shown). */
export function midStreamError(error: unknown, ctx: ErrorContext, received: number): LlmError {
  const after = `after ${received} characters`;
  let message: string;
  if (error instanceof APIError && error.status === undefined) {
    const body = error.error as { message?: unknown } | undefined;
    const text = typeof body?.message === 'string' ? body.message : error.message;
    message = `The provider reported an error in the middle of its answer (${after}): ${redactSecrets(text, ctx.apiKey)}`;
  } else if (error instanceof SyntaxError) {
    message = `The model's stream carried malformed data (invalid JSON in an event, ${after}).`;
  } else if (error instanceof LlmError) {
    message = error.message;
  } else {
    const detail = error instanceof Error ? error.message : String(error);
    message = `The connection to the model was lost in the middle of its answer (${after}): ${redactSecrets(detail, ctx.apiKey)}`;
  }
  return new LlmError('NETWORK_MIDSTREAM', message, { cause: error });
}
