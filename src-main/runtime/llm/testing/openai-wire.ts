/**
 * The chat-completions wire format as the scripted server speaks it: request validation
 * with OpenAI's own 400 texts, response bodies, stream chunks and error bodies.
 * Kept apart from the HTTP plumbing so the texts are easy to compare with the real API.
 */

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface WireMessage {
  role: string;
  content?: unknown;
  tool_calls?: WireToolCall[];
  tool_call_id?: string;
  name?: string;
}

/** An OpenAI-style error body: `{error: {message, type, param, code}}`. */
export interface WireError {
  status: number;
  body: { error: { message: string; type: string; param: string | null; code: string | null } };
  headers?: Record<string, string>;
}

export function wireError(
  status: number,
  message: string,
  type = 'invalid_request_error',
  code: string | null = null,
  param: string | null = null,
): WireError {
  return { status, body: { error: { message, type, param, code } } };
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Checks a request body the way the real API does and returns the 400 it would answer,
 * or null. The texts are OpenAI's (including its "preceeding" spelling), so a client that
 * breaks tool-call pairing fails here exactly as it would in production.
 */
export function validateChatRequest(body: unknown): WireError | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return wireError(400, 'The request body must be a JSON object.');
  }
  const b = body as Record<string, unknown>;
  if (typeof b['model'] !== 'string' || b['model'] === '') {
    return wireError(400, 'you must provide a model parameter', 'invalid_request_error', null);
  }
  const messages = b['messages'];
  if (!Array.isArray(messages)) {
    return wireError(400, "Missing required parameter: 'messages'.", undefined, null, 'messages');
  }
  if (messages.length === 0) {
    return wireError(400, "[] is too short - 'messages'", undefined, null, 'messages');
  }
  const tools = b['tools'];
  if (tools !== undefined) {
    if (!Array.isArray(tools)) return wireError(400, "Invalid type for 'tools'.", undefined, null);
    for (let i = 0; i < tools.length; i++) {
      const name = (tools[i] as { function?: { name?: unknown } })?.function?.name;
      if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
        return wireError(
          400,
          `Invalid 'tools[${i}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
          undefined,
          'invalid_value',
          `tools[${i}].function.name`,
        );
      }
    }
  }
  if (b['tool_choice'] !== undefined && (!Array.isArray(tools) || tools.length === 0)) {
    return wireError(
      400,
      "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
      undefined,
      null,
      'tool_choice',
    );
  }
  return validateMessages(messages as WireMessage[]);
}

function validateMessages(messages: WireMessage[]): WireError | null {
  let pending: string[] = [];
  let pendingFrom = -1;
  const unanswered = () =>
    wireError(
      400,
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${pending.join(', ')}`,
      'invalid_request_error',
      null,
      `messages.[${pendingFrom}].role`,
    );
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (typeof m !== 'object' || m === null) {
      return wireError(
        400,
        `Invalid type for 'messages[${i}]'.`,
        undefined,
        null,
        `messages[${i}]`,
      );
    }
    if (!['system', 'user', 'assistant', 'tool', 'developer'].includes(m.role)) {
      return wireError(
        400,
        `Invalid value: '${String(m.role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
        undefined,
        'invalid_value',
        `messages[${i}].role`,
      );
    }
    if (m.role === 'tool') {
      const id = m.tool_call_id;
      if (typeof id !== 'string' || !pending.includes(id)) {
        return wireError(
          400,
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          'invalid_request_error',
          null,
          `messages.[${i}].role`,
        );
      }
      pending = pending.filter((p) => p !== id);
      continue;
    }
    if (pending.length > 0) return unanswered();
    if (m.role === 'assistant') {
      const calls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
      if (calls.length === 0 && (m.content === null || m.content === undefined)) {
        return wireError(
          400,
          "Invalid value for 'content': expected a string, got null.",
          undefined,
          null,
          `messages.[${i}].content`,
        );
      }
      pending = calls.map((c) => c.id);
      pendingFrom = i;
    } else if (m.content === null || m.content === undefined) {
      return wireError(
        400,
        "Invalid value for 'content': expected a string, got null.",
        undefined,
        null,
        `messages.[${i}].content`,
      );
    }
  }
  return pending.length > 0 ? unanswered() : null;
}

/** Rough token count (4 characters a token): the scripted server only needs plausible usage. */
export function approxTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function promptTokens(messages: WireMessage[]): number {
  let total = 0;
  for (const m of messages) {
    const content = typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '');
    total += approxTokens(content) + 4;
    for (const call of m.tool_calls ?? []) {
      total += approxTokens(call.function.name + call.function.arguments);
    }
  }
  return total;
}

export interface CompletionParts {
  id: string;
  created: number;
  model: string;
  content: string | null;
  toolCalls: WireToolCall[];
  finishReason: string | null;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
}

export function completionBody(p: CompletionParts): Record<string, unknown> {
  const message: Record<string, unknown> = { role: 'assistant', content: p.content, refusal: null };
  if (p.toolCalls.length > 0) message['tool_calls'] = p.toolCalls;
  const body: Record<string, unknown> = {
    id: p.id,
    object: 'chat.completion',
    created: p.created,
    model: p.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: p.finishReason }],
  };
  if (p.usage) body['usage'] = p.usage;
  return body;
}

/**
 * The stream chunks of a completion, as OpenAI sends them: a role chunk, content in
 * pieces, each tool call as a header chunk (id, name) followed by argument fragments,
 * then the finish chunk and, when asked for, a usage chunk with empty choices.
 */
export function completionChunks(
  p: CompletionParts,
  chunkSize: number,
  includeUsage: boolean,
): Record<string, unknown>[] {
  const base = { id: p.id, object: 'chat.completion.chunk', created: p.created, model: p.model };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const chunks: Record<string, unknown>[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of split(p.content ?? '', chunkSize)) chunks.push(chunk({ content: piece }));
  p.toolCalls.forEach((call, index) => {
    chunks.push(
      chunk({
        tool_calls: [
          {
            index,
            id: call.id,
            type: 'function',
            function: { name: call.function.name, arguments: '' },
          },
        ],
      }),
    );
    for (const piece of split(call.function.arguments, chunkSize)) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  chunks.push(chunk({}, p.finishReason));
  if (includeUsage && p.usage) chunks.push({ ...base, choices: [], usage: p.usage });
  return chunks;
}

function split(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

/** Context-length errors as different OpenAI-compatible providers word them (reliability L8). */
export const CONTEXT_LENGTH_ERRORS = {
  openai: wireError(
    400,
    "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.",
    'invalid_request_error',
    'context_length_exceeded',
    'messages',
  ),
  anthropic: wireError(400, 'prompt is too long: 210000 tokens > 200000 maximum'),
  vllm: wireError(
    400,
    "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
    'BadRequestError',
  ),
  llamacpp: wireError(
    400,
    'the request exceeds the available context size, try increasing it',
    'exceed_context_size_error',
  ),
  together: wireError(
    400,
    'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 8193. Given: 9000 `inputs` tokens and 1000 `max_new_tokens`; input length and `max_tokens` exceed context limit',
  ),
  mistral: wireError(
    400,
    'Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length',
    'invalid_request_message_order',
  ),
} as const;
