/**
 * Helpers of the OpenAI client: our messages in the wire format and the per-attempt
 * watchdog.
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Message } from '@shared/domain/message';

/** Our messages in the wire format; images become `image_url` parts of user messages. */
export function toWireMessage(message: Message): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content ?? '' };
    case 'user':
      if (message.image) {
        return {
          role: 'user',
          content: [
            ...(message.content ? [{ type: 'text' as const, text: message.content }] : []),
            {
              type: 'image_url' as const,
              image_url: { url: `data:${message.image.mimeType};base64,${message.image.data}` },
            },
          ],
        };
      }
      return { role: 'user', content: message.content ?? '' };
    case 'tool':
      return {
        role: 'tool',
        content: message.content ?? '',
        tool_call_id: message.tool_call_id ?? '',
      };
    case 'assistant': {
      const calls = message.tool_calls ?? [];
      if (calls.length > 0)
        return { role: 'assistant', content: message.content, tool_calls: calls };
      return { role: 'assistant', content: message.content ?? '' };
    }
  }
}

/** A timer that fires `onFire` unless restarted in time; the per-attempt timeout. */
export class Watchdog {
  fired = false;
  private timer: NodeJS.Timeout | undefined;
  constructor(
    private readonly ms: number,
    private readonly onFire: () => void,
  ) {
    this.restart();
  }
  restart(): void {
    this.stop();
    this.timer = setTimeout(() => {
      this.fired = true;
      this.onFire();
    }, this.ms);
  }
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
