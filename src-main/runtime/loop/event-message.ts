import type { Message } from '@shared/domain/message';
import type { EventMessage } from '@shared/events';

/** The event form of a memory message: image bytes stay in the main process. */
export function toEventMessage(message: Message): EventMessage {
  const out: EventMessage = { role: message.role, content: message.content };
  if (message.tool_calls && message.tool_calls.length > 0) out.tool_calls = message.tool_calls;
  if (message.tool_call_id !== undefined) out.tool_call_id = message.tool_call_id;
  if (message.name !== undefined) out.name = message.name;
  if (message.image) out.imageMimeType = message.image.mimeType;
  return out;
}
