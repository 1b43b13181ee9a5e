/**
 * Images that tools return (browser screenshots, MCP image content) reach the model as a
 * USER message following the tool results, never on the tool message: OpenAI rejects
 * images on tool messages (openmanus.md 7.2 item 4). Only the newest few stay in memory;
 * older ones are replaced by a note, so a long browsing run does not carry every
 * screenshot it ever took (the original kept a full-page JPEG per step).
 */
import type { Message, MessageImage } from '@shared/domain/message';
import type { Tool } from '../tool';

export interface RelayedImage {
  toolName: string;
  toolCallId: string;
  image: MessageImage;
}

export const IMAGE_FOLLOWS_NOTE = '(An image from this call follows in the next user message.)';

/**
 * Takes images out of tool results so the loop never puts them on a tool message, and
 * holds them until the agent appends them as user messages after the batch.
 */
export class ToolImageRelay {
  private pending: RelayedImage[] = [];

  wrap<Args>(tool: Tool<Args>): Tool<Args> {
    const execute: Tool<Args>['execute'] = async (args, context) => {
      const result = await tool.execute(args, context);
      if (!result.image) return result;
      this.pending.push({
        toolName: tool.name,
        toolCallId: context.toolCallId,
        image: result.image,
      });
      const { image: _moved, ...rest } = result;
      return rest.error !== undefined
        ? { ...rest, error: `${rest.error}\n${IMAGE_FOLLOWS_NOTE}` }
        : { ...rest, output: `${rest.output}\n${IMAGE_FOLLOWS_NOTE}` };
    };
    return {
      name: tool.name,
      description: tool.description,
      schema: tool.schema,
      execute,
      ...(tool.dispose ? { dispose: () => tool.dispose!() } : {}),
    };
  }

  /** The images collected since the last call, oldest first. */
  take(): RelayedImage[] {
    const taken = this.pending;
    this.pending = [];
    return taken;
  }
}

/** The user message that carries one tool's image. */
export function imageMessage(relayed: RelayedImage): Message {
  return {
    role: 'user',
    content: `Image returned by the \`${relayed.toolName}\` call ${relayed.toolCallId} (${relayed.image.mimeType}).`,
    image: relayed.image,
  };
}

export const IMAGE_REMOVED_NOTE =
  '[image removed from memory: only the most recent images are kept]';

/**
 * Drops the image of every message but the newest `keep` that carry one, leaving a note
 * in its place. Memory hands out its message objects, so this edits them in place;
 * events were already emitted with their own copies. Returns how many were dropped.
 */
export function trimImages(messages: readonly Message[], keep: number): number {
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
    dropped++;
  }
  return dropped;
}
