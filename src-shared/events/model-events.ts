/**
 * Model calls: the exact request, the streamed text, the reply, retries and the queue
 * before a profile.
 * Part of the RunEvent contract (../events.ts, docs/events.md).
 */
import type { TokenUsage } from '../domain/agent';
import type { ToolCall } from '../domain/message';
import type { EventMessage } from './step-events';

export interface LlmRequestedEvent {
  type: 'llm.requested';
  agent: string;
  step: number;
  model: string;
  messageCount: number;
  inputTokens: number;
  /**
   * the system prompt sent in front of memory, present when it differs from this
   * agent's previous request (so a 10,000-step run does not repeat it 10,000 times)
   */
  system?: string;
  /** the stuck nudge sent after memory with this request only (it is never stored) */
  nudge?: string;
  /**
   * attempts this call may take, retries included (the profile's max_retries + 1): the
   * pending-call row's "attempt n of max". Absent in older runs and for clients that
   * do not retry.
   */
  maxAttempts?: number;
  /**
   * the sampling parameters sent, by their wire names (absent in older runs; a reasoning
   * model gets `max_completion_tokens` and no temperature)
   */
  params?: RequestParams;
  /** the tool_choice sent; present when the request offered tools */
  toolChoice?: 'auto' | 'required' | 'none';
  /**
   * a reference to the tool list sent (names, descriptions, JSON schemas): its hash.
   * The list itself is in `tools` of the first request of this agent that sent it, so
   * a 10,000-step run does not repeat the schemas in every step (`requestTools`).
   */
  toolsHash?: string;
  /** the tool list, present when `toolsHash` differs from this agent's previous request */
  tools?: RequestTool[];
  /**
   * the messages sent, for requests not built from the agent's memory (the planner, a
   * page extraction). Absent: the request was the system prompt (`system`), this agent's
   * memory messages as `memory.appended`/`memory.truncated` left them, and `nudge`.
   */
  messages?: EventMessage[];
  /**
   * the MCP server whose `sampling/createMessage` this call answers (docs/mcp.md,
   * "Sampling"); absent for the agent's own calls
   */
  sampledBy?: string;
}
/** The sampling parameters of a model request, named as on the wire. */
export interface RequestParams {
  temperature?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
}
/** A tool as the model was offered it (an OpenAI function declaration). */
export interface RequestTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}
export interface LlmDeltaEvent {
  type: 'llm.delta';
  agent: string;
  step: number;
  text: string;
}
export interface LlmRespondedEvent {
  type: 'llm.responded';
  agent: string;
  step: number;
  model: string;
  content: string | null;
  toolCalls: ToolCall[];
  usage: TokenUsage;
  durationMs: number;
  finishReason: string;
  /**
   * who counted `usage`: the provider (its `usage` figures) or, when it reported none,
   * the runtime with the o200k tokenizer. Absent in older runs.
   */
  usageSource?: 'provider' | 'o200k';
  /**
   * of `durationMs`, the time the call waited for its profile before it was sent
   * (`llm.queued`: max_concurrency, a 429 rest); absent when it did not wait and in older
   * runs. `durationMs` also holds the failed attempts and the backoff of each
   * `llm.retried` (`delayMs`) before this answer.
   */
  queuedMs?: number;
}
export interface LlmRetriedEvent {
  type: 'llm.retried';
  agent: string;
  step: number;
  attempt: number;
  status: number | null;
  delayMs: number;
  error: string;
}
/**
 * A model call waits for its profile before it is sent: `[llm.NAME] max_concurrency`
 * calls of the profile are in flight (`ahead` wait before it), or the profile rests
 * after a 429 (`delayMs`). The call goes on with `llm.responded` (or a failure).
 */
export interface LlmQueuedEvent {
  type: 'llm.queued';
  agent: string;
  step: number;
  model: string;
  reason: 'max_concurrency' | 'rate_limited';
  ahead?: number;
  capacity?: number;
  delayMs?: number;
}
