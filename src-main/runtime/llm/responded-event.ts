/**
 * The `llm.responded` event of a model call, built the same way wherever a call is made
 * (an agent's step, the planner, a tool's or an MCP server's call): the reply, its usage
 * and where that came from, and the time since the request including queue and retries.
 */
import type { LlmRespondedEvent } from '@shared/events';
import type { ChatResponse } from './llm-client';

export function respondedEvent(
  agent: string,
  step: number,
  response: ChatResponse,
  startedAt: number,
): LlmRespondedEvent {
  return {
    type: 'llm.responded',
    agent,
    step,
    model: response.model,
    content: response.content,
    toolCalls: response.toolCalls,
    usage: response.usage,
    durationMs: Math.round(performance.now() - startedAt),
    finishReason: response.finishReason,
    ...(response.usageSource ? { usageSource: response.usageSource } : {}),
    ...(response.queuedMs ? { queuedMs: response.queuedMs } : {}),
  };
}
