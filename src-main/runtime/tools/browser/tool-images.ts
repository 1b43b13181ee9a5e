/**
 * Images that tools return (browser screenshots, MCP image content) reach the model as a
 * USER message following the tool results, never on the tool message: OpenAI rejects
 * images on tool messages (openmanus.md 7.2 item 4). The loop attaches them
 * (loop/toolcall-agent.ts); this keeps only the newest few in memory and replaces older
 * ones by a note, so a long browsing run does not carry every screenshot it ever took
 * (the original kept a full-page JPEG per step).
 */
import type { Message } from '@shared/domain/message';

export const IMAGE_REMOVED_NOTE =
  '[image removed from memory: only the most recent images are kept]';

/**
 * Drops the image of every message but the newest `keep` that carry one, leaving a note
 * in its place. Memory hands out its message objects, so this edits them in place;
 * events were already emitted with their own copies. Returns how many were dropped.
 */
export function trimImages(
  messages: readonly Message[],
  keep: number,
  onTrimmed?: (message: Message) => void,
): number {
  let seen = 0;
  let dropped = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (!message.image) continue;
    seen++;
    if (seen <= keep) continue;
    delete message.image;
    message.content = message.content
      ? `${message.content} ${IMAGE_REMOVED_NOTE}`
      : IMAGE_REMOVED_NOTE;
    onTrimmed?.(message);
    dropped++;
  }
  return dropped;
}
