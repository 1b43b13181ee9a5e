/**
 * Servers that lose tool calls when they stream. Some OpenAI-compatible servers (mock
 * servers, thin proxies) stream only the text of a reply: its `tool_calls` never arrive,
 * the finish reason says "tool_calls" or even "stop", and the agent saw an empty answer
 * and ended the run as finished having done nothing (issue 16 item 5). A streamed reply
 * that offered tools and came back with neither text nor a tool call is asked for again
 * without streaming; when that answer has the tool calls, the client stops streaming
 * for the rest of its life.
 */
import type { ChatResponse, RetryNotice } from './llm-client';

interface Offered {
  tools?: unknown[];
  tool_choice?: unknown;
}

/** True when a streamed reply looks like one whose tool calls were dropped on the way. */
export function looksLikeDroppedToolCalls(response: ChatResponse, body: Offered): boolean {
  if ((body.tools?.length ?? 0) === 0 || body.tool_choice === 'none') return false;
  if (response.toolCalls.length > 0) return false;
  return response.finishReason === 'tool_calls' || (response.content ?? '').trim() === '';
}

export function droppedToolCallsNotice(finishReason: string): RetryNotice {
  return {
    attempt: 1,
    status: null,
    delayMs: 0,
    error:
      finishReason === 'tool_calls'
        ? 'The streamed reply said it called tools (finish_reason "tool_calls") but carried no tool call: asking again without streaming.'
        : 'The streamed reply had neither text nor a tool call (a server may drop tool calls when it streams): asking again without streaming.',
  };
}
