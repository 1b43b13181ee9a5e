/**
 * The playground's editor state is the request body itself: every control edits one part
 * of it and the raw JSON view is the whole of it, so what is sent is exactly what is shown
 * (docs/playground.md). Pure functions, each returning a new body.
 */
import type { PlaygroundReply } from '@shared/ipc';

export type Body = Record<string, unknown>;
export type WireMessage = Record<string, unknown>;

export function messagesOf(body: Body): WireMessage[] {
  const messages = body['messages'];
  return Array.isArray(messages) ? (messages as WireMessage[]) : [];
}

export function withMessageContent(body: Body, index: number, content: string): Body {
  return {
    ...body,
    messages: messagesOf(body).map((m, i) => (i === index ? { ...m, content } : m)),
  };
}

export function withMessageRole(body: Body, index: number, role: string): Body {
  return {
    ...body,
    messages: messagesOf(body).map((m, i) => (i === index ? { ...m, role } : m)),
  };
}

export function withoutMessage(body: Body, index: number): Body {
  return { ...body, messages: messagesOf(body).filter((_, i) => i !== index) };
}

export function withAddedMessage(body: Body, role: 'user' | 'system' | 'assistant'): Body {
  return { ...body, messages: [...messagesOf(body), { role, content: '' }] };
}

/** sets a top-level parameter; undefined removes it (the request then leaves it out) */
export function withParam(body: Body, key: string, value: unknown): Body {
  const next = { ...body };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next;
}

/** a number field's text: '' removes the parameter; anything else must be a number */
export function parseNumberField(text: string): { value: number | undefined } | { error: string } {
  if (text.trim() === '') return { value: undefined };
  const value = Number(text);
  return Number.isFinite(value) ? { value } : { error: `"${text}" is not a number` };
}

/** the tools as edited (a JSON array); an empty array removes tools and tool_choice */
export function withToolsJson(body: Body, text: string): Body | { error: string } {
  let tools: unknown;
  try {
    tools = JSON.parse(text);
  } catch (error) {
    return { error: `The tools are not valid JSON: ${(error as Error).message}` };
  }
  if (!Array.isArray(tools)) return { error: 'The tools must be a JSON array' };
  if (tools.length === 0) {
    const { tools: _t, tool_choice: _c, ...rest } = body;
    return rest;
  }
  return { ...body, tools };
}

/** the whole body as edited in the raw view */
export function parseRawBody(text: string): Body | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { error: `Not valid JSON: ${(error as Error).message}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { error: 'The request must be a JSON object' };
  }
  return parsed as Body;
}

export function isError<T extends object>(
  value: T | { error: string },
): value is { error: string } {
  return 'error' in value && typeof (value as { error: unknown }).error === 'string';
}

/** the first system message's text, if the request has one */
export function systemTextOf(body: Body): string | undefined {
  const system = messagesOf(body).find((m) => m['role'] === 'system');
  return typeof system?.['content'] === 'string' ? system['content'] : undefined;
}

/** A reply as lines to compare: its text, then each tool call with its arguments. */
export function replyText(reply: Partial<PlaygroundReply>): string {
  const lines: string[] = [];
  if (reply.content) lines.push(reply.content);
  for (const call of reply.toolCalls ?? []) {
    let args = call.function.arguments;
    try {
      args = JSON.stringify(JSON.parse(args), null, 2);
    } catch {
      // not JSON: compared as sent
    }
    lines.push(`→ ${call.function.name}(${args})`);
  }
  if (reply.finishReason) lines.push(`[finish: ${reply.finishReason}]`);
  return `${lines.join('\n')}\n`;
}

/** How many different replies the samples gave (the variance, at a glance). */
export function distinctReplies(samples: readonly Partial<PlaygroundReply>[]): number {
  return new Set(samples.map(replyText)).size;
}
