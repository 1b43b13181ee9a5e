/**
 * A chat-completions reply as the gateway records it, read from what the upstream sent
 * (a JSON body, or the chunks of a stream) and written back out (a recorded or edited
 * reply answered to the agent, as a body or as a stream). Only `choices[0]` is recorded;
 * the bytes of an unedited reply reach the agent untouched.
 */
import type { ToolCall } from '@shared/domain/message';

export interface ChatReply {
  model: string;
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: string;
  /** absent when the upstream reported none */
  usage?: { prompt: number; completion: number };
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function usageOf(body: Json): ChatReply['usage'] {
  const usage = body['usage'];
  if (!isObject(usage)) return undefined;
  const prompt = Number(usage['prompt_tokens'] ?? 0);
  const completion = Number(usage['completion_tokens'] ?? 0);
  return Number.isFinite(prompt + completion) ? { prompt, completion } : undefined;
}

function toolCallOf(raw: unknown, position: number): ToolCall {
  const call = isObject(raw) ? raw : {};
  const fn = isObject(call['function']) ? call['function'] : {};
  return {
    id: typeof call['id'] === 'string' ? call['id'] : `call_${position}`,
    type: 'function',
    function: {
      name: typeof fn['name'] === 'string' ? fn['name'] : '',
      arguments: typeof fn['arguments'] === 'string' ? fn['arguments'] : '',
    },
  };
}

/** The reply of a non-streamed answer (`choices[0].message`). */
export function replyOfBody(body: unknown, requestedModel: string): ChatReply {
  const json = isObject(body) ? body : {};
  const choices = Array.isArray(json['choices']) ? json['choices'] : [];
  const choice = isObject(choices[0]) ? choices[0] : {};
  const message = isObject(choice['message']) ? choice['message'] : {};
  const calls = Array.isArray(message['tool_calls']) ? message['tool_calls'] : [];
  const usage = usageOf(json);
  return {
    model: typeof json['model'] === 'string' ? json['model'] : requestedModel,
    content: typeof message['content'] === 'string' ? message['content'] : null,
    toolCalls: calls.map(toolCallOf),
    finishReason: typeof choice['finish_reason'] === 'string' ? choice['finish_reason'] : 'stop',
    ...(usage ? { usage } : {}),
  };
}

/** Builds the reply of a stream from its chunks (`data:` JSON objects), in order. */
export class StreamAssembler {
  private model: string;
  private text = '';
  private hasText = false;
  private readonly calls: { id?: string; name: string; args: string }[] = [];
  private finishReason = 'stop';
  private usage: ChatReply['usage'];
  /** an in-band `{"error": …}` a server sent inside its stream */
  error: string | undefined;

  constructor(requestedModel: string) {
    this.model = requestedModel;
  }

  push(chunk: unknown): void {
    if (!isObject(chunk)) return;
    if (chunk['error'] !== undefined) {
      const error = chunk['error'];
      this.error =
        isObject(error) && typeof error['message'] === 'string'
          ? error['message']
          : JSON.stringify(error);
      return;
    }
    if (typeof chunk['model'] === 'string' && chunk['model']) this.model = chunk['model'];
    this.usage = usageOf(chunk) ?? this.usage;
    const choices = Array.isArray(chunk['choices']) ? chunk['choices'] : [];
    const choice = isObject(choices[0]) ? choices[0] : undefined;
    if (!choice) return;
    if (typeof choice['finish_reason'] === 'string') this.finishReason = choice['finish_reason'];
    const delta = isObject(choice['delta']) ? choice['delta'] : {};
    if (typeof delta['content'] === 'string') {
      this.text += delta['content'];
      this.hasText = true;
    }
    const calls = Array.isArray(delta['tool_calls']) ? delta['tool_calls'] : [];
    for (const raw of calls) {
      if (!isObject(raw)) continue;
      const index = typeof raw['index'] === 'number' ? raw['index'] : this.calls.length;
      const slot = (this.calls[index] ??= { name: '', args: '' });
      if (typeof raw['id'] === 'string' && raw['id']) slot.id = raw['id'];
      const fn = isObject(raw['function']) ? raw['function'] : {};
      if (typeof fn['name'] === 'string') slot.name += fn['name'];
      if (typeof fn['arguments'] === 'string') slot.args += fn['arguments'];
    }
  }

  result(): ChatReply {
    return {
      model: this.model,
      content: this.hasText ? this.text : null,
      toolCalls: this.calls
        .filter((c) => c !== undefined)
        .map((c, i) => ({
          id: c.id ?? `call_${i}`,
          type: 'function' as const,
          function: { name: c.name, arguments: c.args },
        })),
      finishReason: this.finishReason,
      ...(this.usage ? { usage: this.usage } : {}),
    };
  }
}

/** Splits an SSE byte stream into its `data:` payloads; keeps a partial line for later. */
export class SseReader {
  private buffer = '';

  /** the complete `data:` values in `text` (with what was held back before) */
  feed(text: string): string[] {
    this.buffer += text;
    const lines = this.buffer.split('\n');
    this.buffer = lines.pop() ?? '';
    const data: string[] = [];
    for (const line of lines) {
      const trimmed = line.replace(/\r$/, '');
      if (trimmed.startsWith('data:')) data.push(trimmed.slice(5).trimStart());
    }
    return data;
  }
}

const wireCalls = (calls: readonly ToolCall[]) =>
  calls.map((c) => ({ id: c.id, type: 'function', function: { ...c.function } }));

function wireUsage(reply: ChatReply): Json {
  const usage = reply.usage ?? { prompt: 0, completion: 0 };
  return {
    prompt_tokens: usage.prompt,
    completion_tokens: usage.completion,
    total_tokens: usage.prompt + usage.completion,
  };
}

/** A non-streamed answer carrying `reply` (a recorded or edited one). */
export function bodyOfReply(reply: ChatReply, id: string): Json {
  return {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: reply.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.content,
          ...(reply.toolCalls.length > 0 ? { tool_calls: wireCalls(reply.toolCalls) } : {}),
        },
        finish_reason: reply.finishReason,
      },
    ],
    usage: wireUsage(reply),
  };
}

/** The SSE text of a streamed answer carrying `reply`, `[DONE]` included. */
export function streamOfReply(reply: ChatReply, id: string, withUsage: boolean): string {
  const base = {
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: reply.model,
  };
  const chunk = (delta: Json, finish: string | null) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  let text = chunk({ role: 'assistant', content: reply.content === null ? null : '' }, null);
  if (reply.content) text += chunk({ content: reply.content }, null);
  reply.toolCalls.forEach((call, index) => {
    text += chunk(
      {
        tool_calls: [
          {
            index,
            id: call.id,
            type: 'function',
            function: { name: call.function.name, arguments: call.function.arguments },
          },
        ],
      },
      null,
    );
  });
  text += chunk({}, reply.finishReason);
  if (withUsage)
    text += `data: ${JSON.stringify({ ...base, choices: [], usage: wireUsage(reply) })}\n\n`;
  return `${text}data: [DONE]\n\n`;
}
