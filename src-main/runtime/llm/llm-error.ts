/**
 * The error every model client throws: a kind from reliability.md 3.2 (e) and a message
 * a user can act on. Kept apart from the classification (llm-errors.ts), which needs the
 * `openai` SDK: the agent loop checks for LlmError without loading the SDK.
 */
export const LLM_ERROR_KINDS = [
  'RETRYABLE',
  'RATE_LIMIT',
  /** out of credit or quota (a 429 `insufficient_quota`): waiting does not help */
  'QUOTA',
  'AUTH',
  'CONFIG',
  'CONTEXT_LIMIT',
  'ABORTED',
  'NETWORK_MIDSTREAM',
  'UNKNOWN',
] as const;
export type LlmErrorKind = (typeof LLM_ERROR_KINDS)[number];

export class LlmError extends Error {
  readonly kind: LlmErrorKind;
  /** HTTP status, when there was one */
  readonly status: number | null;
  /** the provider asked us to wait this long before retrying */
  readonly retryAfterMs: number | undefined;
  /** assistant text streamed before a mid-stream failure (so it is not lost) */
  partialContent: string | undefined;

  constructor(
    kind: LlmErrorKind,
    message: string,
    options: { status?: number | null; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = 'LlmError';
    this.kind = kind;
    this.status = options.status ?? null;
    this.retryAfterMs = options.retryAfterMs;
  }

  /** Whether another attempt could succeed (the retry loop also checks its budget). */
  get retryable(): boolean {
    return this.kind === 'RETRYABLE' || this.kind === 'RATE_LIMIT';
  }
}
