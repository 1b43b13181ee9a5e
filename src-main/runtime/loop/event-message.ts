import type { Message, MessageImage } from '@shared/domain/message';
import type { EventImage, EventMessage } from '@shared/events';

/**
 * The event form of a memory message: image bytes stay in the main process. With
 * `keepImage` (the run's history keeps images) the image is stored beside the history
 * first and the event names the file; `imageMimeType` stays for older readers.
 */
export function toEventMessage(
  message: Message,
  keepImage?: (image: MessageImage) => EventImage,
): EventMessage {
  const out: EventMessage = { role: message.role, content: message.content };
  if (message.tool_calls && message.tool_calls.length > 0) out.tool_calls = message.tool_calls;
  if (message.tool_call_id !== undefined) out.tool_call_id = message.tool_call_id;
  if (message.name !== undefined) out.name = message.name;
  if (message.image) {
    out.imageMimeType = message.image.mimeType;
    if (keepImage) out.image = keepImage(message.image);
  }
  return out;
}
