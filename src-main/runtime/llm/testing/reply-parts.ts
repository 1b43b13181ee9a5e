/** Turns a scripted reply into the parts of a completion, and the server's error texts. */
import type { IncomingMessage } from 'node:http';
import {
  approxTokens,
  promptTokens,
  wireError,
  type CompletionParts,
  type WireError,
  type WireToolCall,
} from './openai-wire';
import type { RecordedRequest, ScriptedServerReply } from './scripted-types';

export function completionParts(
  record: RecordedRequest,
  reply: ScriptedServerReply,
): CompletionParts {
  const turn = record.messages.filter((m) => m.role === 'assistant').length + 1;
  const origin = `http://${record.headers['host'] ?? '127.0.0.1'}`;
  const fill = (text: string) =>
    text
      .replaceAll('{{model}}', record.model)
      .replaceAll('{{turn}}', String(turn))
      .replaceAll('{{origin}}', origin);
  const content = typeof reply.content === 'string' ? fill(reply.content) : null;
  const toolCalls: WireToolCall[] = (reply.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `call_${record.index + 1}_${i + 1}`,
    type: 'function',
    function: {
      name: call.name,
      arguments:
        typeof call.arguments === 'string'
          ? call.arguments
          : JSON.stringify(fillDeep(call.arguments ?? {}, fill)),
    },
  }));
  const completion = approxTokens(
    (content ?? '') + toolCalls.map((c) => c.function.name + c.function.arguments).join(''),
  );
  const prompt = promptTokens(record.messages);
  const usage =
    reply.usage === false
      ? null
      : reply.usage
        ? {
            ...reply.usage,
            total_tokens: reply.usage.prompt_tokens + reply.usage.completion_tokens,
          }
        : {
            prompt_tokens: prompt,
            completion_tokens: completion,
            total_tokens: prompt + completion,
          };
  return {
    id: `chatcmpl-scripted-${record.index + 1}`,
    created: Math.floor(record.receivedAt / 1000),
    model: reply.model ?? record.model,
    content,
    toolCalls,
    finishReason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    usage,
  };
}

function fillDeep(value: unknown, fill: (text: string) => string): unknown {
  if (typeof value === 'string') return fill(value);
  if (Array.isArray(value)) return value.map((v) => fillDeep(v, fill));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillDeep(v, fill)]));
  }
  return value;
}

export function defaultErrorText(status: number): string {
  if (status === 429) return 'Rate limit reached for requests. Please try again later.';
  if (status === 401) return 'Incorrect API key provided.';
  if (status === 403) return 'You are not allowed to access this resource.';
  if (status === 404) return 'The model does not exist or you do not have access to it.';
  if (status >= 500)
    return 'The server had an error while processing your request. Sorry about that!';
  return `Scripted error ${status}`;
}

export function invalidKey(req: IncomingMessage): WireError {
  const sent = String(req.headers.authorization ?? req.headers['api-key'] ?? '').replace(
    /^Bearer /,
    '',
  );
  // OpenAI masks the key it echoes; so do we (the client must still not print it).
  const masked = sent.length > 8 ? `${sent.slice(0, 3)}*****${sent.slice(-4)}` : '***';
  return wireError(
    401,
    `Incorrect API key provided: ${masked}. You can find your API key at https://platform.openai.com/account/api-keys.`,
    'invalid_request_error',
    'invalid_api_key',
  );
}
