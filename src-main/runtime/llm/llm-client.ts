/**
 * The seam between agents and models. Agents depend on this interface only; the OpenAI
 * SDK client, the in-process scripted client (tests, demo) and anything else implement it.
 */
import type { TokenUsage } from '@shared/domain/agent';
import type { Message, ToolCall } from '@shared/domain/message';
import type { RequestParams } from '@shared/events';

export type ToolChoice = 'auto' | 'required' | 'none';

/** OpenAI function-tool declaration. */
export interface ToolSpec {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ChatRequest {
  messages: Message[];
  tools?: ToolSpec[];
  toolChoice?: ToolChoice;
}

export interface ChatResponse {
  content: string | null;
  toolCalls: ToolCall[];
  /** 'stop' | 'tool_calls' | 'length' | ... as the provider said it */
  finishReason: string;
  usage: TokenUsage;
  /** who counted `usage`: the provider, or the o200k tokenizer when it reported none */
  usageSource?: 'provider' | 'o200k';
  model: string;
  /**
   * how long the call waited for its profile (`llm/model-gates.ts`: max_concurrency, a
   * 429 rest) before it was sent, in ms; absent when it did not wait. The caller's measured
   * duration of the call includes it (`llm.responded.queuedMs`).
   */
  queuedMs?: number;
}

export interface RetryNotice {
  attempt: number;
  status: number | null;
  delayMs: number;
  error: string;
}

/** Why a call waits before it is sent: its profile's cap, or its profile's 429 cool-down. */
export interface QueuedNotice {
  reason: 'max_concurrency' | 'rate_limited';
  /** max_concurrency: calls of the profile waiting ahead of this one, and the cap */
  ahead?: number;
  capacity?: number;
  /** rate_limited: how long the profile rests */
  delayMs?: number;
}

export interface ChatOptions {
  signal?: AbortSignal;
  /** streamed content as it arrives */
  onDelta?: (text: string) => void;
  /** called before waiting to retry a failed attempt */
  onRetry?: (notice: RetryNotice) => void;
  /** called when the call has to wait for its profile (llm/model-gates.ts) */
  onQueued?: (notice: QueuedNotice) => void;
}

export interface LlmClient {
  readonly model: string;
  /**
   * attempts one call may take, retries included (the profile's max_retries + 1), shown
   * as "attempt n of max" while a call waits (`llm.requested.maxAttempts`); absent when
   * the client does not retry
   */
  readonly maxAttempts?: number;
  complete(request: ChatRequest, options?: ChatOptions): Promise<ChatResponse>;
  /** input tokens of a request as this client counts them (shown in `llm.requested`) */
  countTokens?(request: ChatRequest): number;
  /** the sampling parameters every request of this client carries (`llm.requested.params`) */
  requestParams?(): RequestParams | undefined;
}
