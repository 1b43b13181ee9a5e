/**
 * The messages of a chat-completions request as the run records them: the text of each
 * (content parts joined), the tool calls of an assistant message and the call a tool
 * message answers. Two messages are "the same" for grouping, pairing and replay when
 * these parts are (`sameMessage`), whatever extra fields a framework adds.
 */
import type { Message, Role, ToolCall } from '@shared/domain/message';
import { ROLES } from '@shared/domain/message';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function textOf(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const parts = content
    .map((part) => {
      if (typeof part === 'string') return part;
      if (!isObject(part)) return '';
      if (typeof part['text'] === 'string') return part['text'];
      if (part['type'] === 'image_url') return '[image]';
      return '';
    })
    .filter((text) => text !== '');
  return parts.join('\n');
}

function callsOf(raw: unknown): ToolCall[] | undefined {
  if (!Array.isArray(raw) || raw.length === 0) return undefined;
  return raw.map((call, i) => {
    const c = isObject(call) ? call : {};
    const fn = isObject(c['function']) ? c['function'] : {};
    return {
      id: typeof c['id'] === 'string' ? c['id'] : `call_${i}`,
      type: 'function' as const,
      function: {
        name: typeof fn['name'] === 'string' ? fn['name'] : '',
        arguments: typeof fn['arguments'] === 'string' ? fn['arguments'] : '',
      },
    };
  });
}

/** One request message as a run message ("developer" counts as system). */
export function messageOfWire(raw: unknown): Message {
  const m = isObject(raw) ? raw : {};
  const rawRole = m['role'] === 'developer' ? 'system' : m['role'];
  const role: Role = (ROLES as readonly unknown[]).includes(rawRole) ? (rawRole as Role) : 'user';
  const calls = callsOf(m['tool_calls']);
  return {
    role,
    content: textOf(m['content']),
    ...(calls ? { tool_calls: calls } : {}),
    ...(typeof m['tool_call_id'] === 'string' ? { tool_call_id: m['tool_call_id'] } : {}),
    ...(typeof m['name'] === 'string' ? { name: m['name'] } : {}),
  };
}

/** Role, text, tool calls (names, arguments, ids) and the answered call. */
export function messageKey(m: Message): string {
  return JSON.stringify([
    m.role,
    m.content ?? '',
    (m.tool_calls ?? []).map((c) => [c.id, c.function.name, c.function.arguments]),
    m.tool_call_id ?? '',
  ]);
}

export function sameMessage(a: Message, b: Message): boolean {
  return messageKey(a) === messageKey(b);
}

/** How many leading messages two lists share. */
export function commonPrefix(a: readonly Message[], b: readonly Message[]): number {
  let n = 0;
  while (n < a.length && n < b.length && sameMessage(a[n]!, b[n]!)) n++;
  return n;
}

/** The request's messages back in wire form, after an edit (other fields kept). */
export function wireOfMessage(m: Message, original?: unknown): Json {
  const base = isObject(original) ? { ...original } : {};
  return {
    ...base,
    role: m.role,
    content: m.content,
    ...(m.tool_calls
      ? {
          tool_calls: m.tool_calls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { ...c.function },
          })),
        }
      : {}),
    ...(m.tool_call_id ? { tool_call_id: m.tool_call_id } : {}),
  };
}
