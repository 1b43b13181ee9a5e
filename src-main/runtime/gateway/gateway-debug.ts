/**
 * The debugger's two safe points at the gateway (docs/gateway.md, "The debugger"):
 *
 * - `before_model`: the agent's call has arrived and is not sent yet. Edit a message of
 *   the request or add one (the model sees the edited request), or type the reply
 *   (`provide_reply`: the model is not called).
 * - `before_tools`: the model replied and the agent has not seen it. Approve, edit the
 *   arguments of, drop (`skip_call`) or add tool calls: the agent gets the edited reply
 *   and acts on it. Stuck, tool and approval breakpoints pause here.
 *
 * While paused the agent's HTTP call waits; a stop rejects the wait (the call then ends
 * with an error, gateway-server.ts).
 */
import type { Message, ToolCall } from '@shared/domain/message';
import type { EditRecord } from '@shared/domain/debugger';
import { DebugError } from '../debug/debug-error';
import type { PauseSession } from '../debug/gate';
import type { ChatReply } from './chat-reply';
import type { ExternalRun } from './external-run';
import { messageOfWire } from './wire-messages';

type Json = Record<string, unknown>;

const notHere = (kind: string, where: string) =>
  new DebugError('conflict', `${kind} is not available at the gateway ${where}.`);

/** Pauses before the model call when the debugger asks; applies the edits to `body`. */
export async function holdBeforeModel(
  run: ExternalRun,
  body: Json,
  signal: AbortSignal,
): Promise<{ messages: Message[]; reply?: ChatReply }> {
  const wire = [...(body['messages'] as unknown[])];
  const messages = wire.map(messageOfWire);
  if (!run.debug.isWatching) return { messages };
  let reply: ChatReply | undefined;
  const session: PauseSession = {
    apply(edit) {
      switch (edit.kind) {
        case 'edit_message': {
          const position = run.positionOf(edit.index);
          const message = messages[position];
          if (position < 0 || !message) {
            throw new DebugError(
              'not_found',
              `Message ${edit.index} is not in the request of this call (its messages are ${describeIndexes(run, messages.length)}).`,
            );
          }
          messages[position] = { ...message, content: edit.content };
          wire[position] = { ...(wire[position] as Json), content: edit.content };
          const record: EditRecord = {
            kind: 'edit_message',
            index: edit.index,
            role: message.role,
            before: message.content,
            after: edit.content,
          };
          return { record, index: edit.index };
        }
        case 'add_message': {
          const message: Message = { role: edit.role, content: edit.content };
          wire.push({ role: edit.role, content: edit.content });
          messages.push(message);
          const index = run.added(message);
          return {
            record: { kind: 'add_message', index, role: edit.role, content: edit.content },
            index,
          };
        }
        case 'provide_reply': {
          const toolCalls: ToolCall[] = (edit.toolCalls ?? []).map((c, i) => ({
            id: `call_user_${run.step}_${i + 1}`,
            type: 'function',
            function: { name: c.name, arguments: c.arguments },
          }));
          reply = {
            model: String(body['model'] ?? ''),
            content: edit.content,
            toolCalls,
            finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
          };
          return { record: { kind: 'provide_reply', content: edit.content, toolCalls } };
        }
        default:
          throw notHere(
            edit.kind,
            'before a model call (edit or add a message, or type the reply)',
          );
      }
    },
  };
  const held = run.debug.gate({ agent: run.agent, point: 'before_model', signal, session });
  if (held) await held;
  body['messages'] = wire;
  return reply ? { messages, reply } : { messages };
}

/** Pauses after the model's reply, before the agent sees it; answers the reply it gets. */
export async function holdBeforeTools(
  run: ExternalRun,
  reply: ChatReply,
  signal: AbortSignal,
): Promise<{ reply: ChatReply; isEdited: boolean }> {
  if (!run.debug.isWatching) return { reply, isEdited: false };
  let calls = [...reply.toolCalls];
  let isEdited = false;
  let added = 0;
  const find = (id: string) => {
    const call = calls.find((c) => c.id === id);
    if (!call) {
      throw new DebugError(
        'not_found',
        `No tool call ${id} in this reply (it has: ${calls.map((c) => c.id).join(', ') || 'none'}).`,
      );
    }
    return call;
  };
  const session: PauseSession = {
    apply(edit) {
      switch (edit.kind) {
        case 'approve_call': {
          const call = find(edit.toolCallId);
          return {
            record: { kind: 'approve_call', toolCallId: call.id, name: call.function.name },
            toolCallId: call.id,
          };
        }
        case 'edit_call': {
          const call = find(edit.toolCallId);
          const before = call.function.arguments;
          calls = calls.map((c) =>
            c === call ? { ...c, function: { ...c.function, arguments: edit.arguments } } : c,
          );
          isEdited = true;
          return {
            record: {
              kind: 'edit_call',
              toolCallId: call.id,
              name: call.function.name,
              before,
              after: edit.arguments,
            },
            toolCallId: call.id,
          };
        }
        case 'skip_call': {
          // the agent never sees the call: it is taken out of the reply
          const call = find(edit.toolCallId);
          calls = calls.filter((c) => c !== call);
          isEdited = true;
          return {
            record: {
              kind: 'skip_call',
              toolCallId: call.id,
              name: call.function.name,
              observation: edit.observation,
            },
            toolCallId: call.id,
          };
        }
        case 'add_call': {
          added += 1;
          const call: ToolCall = {
            id: `call_user_${run.step}_${added}`,
            type: 'function',
            function: { name: edit.name, arguments: edit.arguments },
          };
          calls.push(call);
          isEdited = true;
          return {
            record: {
              kind: 'add_call',
              toolCallId: call.id,
              name: edit.name,
              arguments: edit.arguments,
            },
            toolCallId: call.id,
          };
        }
        default:
          throw notHere(
            edit.kind,
            'after the model replied (approve, edit, skip or add tool calls)',
          );
      }
    },
    finish(awaiting) {
      return calls
        .filter((c) => awaiting.includes(c.id))
        .map((c) => ({ kind: 'approve_call' as const, toolCallId: c.id, name: c.function.name }));
    },
  };
  const held = run.debug.gate({
    agent: run.agent,
    point: 'before_tools',
    signal,
    calls: reply.toolCalls,
    session,
  });
  if (held) await held;
  if (!isEdited) return { reply, isEdited: false };
  const finishReason =
    calls.length > 0
      ? 'tool_calls'
      : reply.finishReason === 'tool_calls'
        ? 'stop'
        : reply.finishReason;
  return { reply: { ...reply, toolCalls: calls, finishReason }, isEdited: true };
}

function describeIndexes(run: ExternalRun, count: number): string {
  const known: number[] = [];
  for (let p = 0; p < count; p++) {
    const index = run.indexAt(p);
    if (index !== undefined) known.push(index);
  }
  return known.join(', ') || 'none';
}
