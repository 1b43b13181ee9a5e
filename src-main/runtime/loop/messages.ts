/**
 * The original's message factories (schema.Message.user_message, system_message,
 * assistant_message, tool_message, from_tool_calls). Images go on user messages only
 * (openmanus.md 7.2 item 4): a tool's image becomes a following user message.
 */
import type { Message, MessageImage, ToolCall } from '@shared/domain/message';

export function userMessage(content: string, image?: MessageImage): Message {
  return image ? { role: 'user', content, image } : { role: 'user', content };
}

export function systemMessage(content: string): Message {
  return { role: 'system', content };
}

/** An assistant message without tool calls always has string content (the API demands it). */
export function assistantMessage(content: string | null): Message {
  return { role: 'assistant', content: content ?? '' };
}

export function toolMessage(content: string, toolCallId: string, name: string): Message {
  return { role: 'tool', content, tool_call_id: toolCallId, name };
}

/** An assistant message carrying tool calls; content may be null. */
export function fromToolCalls(toolCalls: ToolCall[], content: string | null = null): Message {
  if (toolCalls.length === 0) return assistantMessage(content);
  return { role: 'assistant', content: content === '' ? null : content, tool_calls: toolCalls };
}
