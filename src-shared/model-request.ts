/**
 * A model request as it was sent, rebuilt from the run's events: the messages (recorded
 * with the request, or the system prompt + the agent's memory at that point + the
 * nudge), the tool list (`llm.requested` carries it by hash; the list itself comes with
 * the first request that sent it), tool_choice and the sampling parameters. Pure, so the
 * inspector and the tests that hold it against the model server's request log share it.
 */
import type {
  EventMessage,
  LlmRequestedEvent,
  RequestParams,
  RequestTool,
  RunEvent,
  RunEventOf,
} from './events';

/** The tool lists of a run by hash; feed it every `llm.requested` in order. */
export class RequestToolBook {
  private readonly byHash = new Map<string, RequestTool[]>();

  note(event: Pick<LlmRequestedEvent, 'toolsHash' | 'tools'>): void {
    if (event.toolsHash !== undefined && event.tools) this.byHash.set(event.toolsHash, event.tools);
  }

  /** the tools a request offered; undefined when none, or the list was never recorded (older runs) */
  toolsOf(event: Pick<LlmRequestedEvent, 'toolsHash' | 'tools'>): RequestTool[] | undefined {
    if (event.tools) return event.tools;
    return event.toolsHash === undefined ? undefined : this.byHash.get(event.toolsHash);
  }
}

export interface RequestParts {
  model: string;
  messages: readonly EventMessage[];
  tools?: readonly RequestTool[];
  toolChoice?: LlmRequestedEvent['toolChoice'];
  params?: RequestParams;
}

/** One message in the OpenAI chat wire format (what the client sends). */
export type WireMessageView = Record<string, unknown>;

/** The request's JSON body as the OpenAI client builds it (without `stream` options). */
export function requestBody(parts: RequestParts): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: parts.model,
    messages: parts.messages.map(wireMessage),
  };
  if (parts.tools && parts.tools.length > 0) {
    body['tools'] = parts.tools;
    body['tool_choice'] = parts.toolChoice ?? 'auto';
  }
  return { ...body, ...parts.params };
}

/**
 * What stands for an image's data: URL in a rebuilt request: the history keeps the bytes
 * as a file named by `image.ref` (issue 17), or, in older runs, only their type.
 */
function imagePlaceholderUrl(m: EventMessage): string {
  const ref = m.image?.ref;
  return ref !== undefined
    ? `(a ${m.image!.mimeType} image, kept in the history as ${ref})`
    : `(a ${m.imageMimeType} image, not recorded)`;
}

/** A message as the wire carries it; an image's bytes are not in the events, only its type and file. */
export function wireMessage(m: EventMessage): WireMessageView {
  switch (m.role) {
    case 'tool':
      return { role: 'tool', content: m.content ?? '', tool_call_id: m.tool_call_id ?? '' };
    case 'assistant':
      return m.tool_calls && m.tool_calls.length > 0
        ? { role: 'assistant', content: m.content, tool_calls: m.tool_calls }
        : { role: 'assistant', content: m.content ?? '' };
    case 'user':
      if (m.imageMimeType) {
        return {
          role: 'user',
          content: [
            ...(m.content ? [{ type: 'text', text: m.content }] : []),
            { type: 'image_url', image_url: { url: imagePlaceholderUrl(m) } },
          ],
        };
      }
      return { role: 'user', content: m.content ?? '' };
    default:
      return { role: m.role, content: m.content ?? '' };
  }
}

/**
 * The messages a request carried, from the events before it: its own `messages` when it
 * recorded them, else the agent's system prompt (the last one it reported), its memory
 * messages not dropped by then (in index order) and the nudge. Debugger edits made later
 * are not undone here (the inspector's context view does that).
 */
export function messagesAtRequest(
  events: readonly RunEvent[],
  request: RunEventOf<'llm.requested'>,
): EventMessage[] {
  if (request.messages) return request.messages;
  let system: string | undefined;
  const memory = new Map<number, EventMessage>();
  for (const e of events) {
    if (e.seq > request.seq) break;
    if (!('agent' in e) || e.agent !== request.agent) continue;
    if (e.type === 'llm.requested' && e.system !== undefined) system = e.system;
    else if (e.type === 'memory.appended') memory.set(e.index, e.message);
    else if (e.type === 'memory.truncated') for (const i of e.dropped) memory.delete(i);
  }
  const messages: EventMessage[] = [];
  if (system) messages.push({ role: 'system', content: system });
  for (const index of [...memory.keys()].sort((a, b) => a - b)) messages.push(memory.get(index)!);
  if (request.nudge) messages.push({ role: 'user', content: request.nudge });
  return messages;
}

/** Every model request of a run, rebuilt: what the inspector's raw view and the tests show. */
export function requestsOfRun(
  events: readonly RunEvent[],
): { event: RunEventOf<'llm.requested'>; body: Record<string, unknown> }[] {
  const book = new RequestToolBook();
  const out: { event: RunEventOf<'llm.requested'>; body: Record<string, unknown> }[] = [];
  for (const e of events) {
    if (e.type !== 'llm.requested') continue;
    book.note(e);
    const tools = book.toolsOf(e);
    out.push({
      event: e,
      body: requestBody({
        model: e.model,
        messages: messagesAtRequest(events, e),
        ...(tools ? { tools } : {}),
        ...(e.toolChoice ? { toolChoice: e.toolChoice } : {}),
        ...(e.params ? { params: e.params } : {}),
      }),
    });
  }
  return out;
}
