/**
 * The ToolCallAgent's side of the debugger (debug/gate.ts): its two safe points and the
 * edits that apply at each, kept out of the agent so the loop only awaits a hook.
 *
 * - Before the step's model call (`modelTurn`): the user may edit the content of a
 *   message in the context window, add a message, change the model (handled by the run
 *   debugger), or type the assistant's reply, which then stands in for the model call.
 *   When a model call fails and a `model_error` breakpoint is set, the run pauses with
 *   the same edits and the call is tried again on resume (or the typed reply is used).
 * - Between the model's reply and its tool calls (`beforeTools`), before the assistant
 *   message is stored: calls can be approved, have their arguments edited, be skipped
 *   with an observation the user writes, or be added. Memory then stores the calls as
 *   they will run, and each gets exactly one tool message (a skipped one: the user's
 *   observation), so the pairing invariant holds through every edit.
 */
import type { DebugEdit, EditRecord } from '@shared/domain/debugger';
import type { Message, ToolCall } from '@shared/domain/message';
import type { RunEventPayload } from '@shared/events';
import type { DebugGate, PauseSession } from '../debug/gate';
import { DebugError } from '../debug/debug-error';
import type { ChatResponse } from '../llm/llm-client';
import type { ToolRegistry } from '../tools/tool-registry';
import { isCancellation } from '../util/abort';
import type { StepContext } from './base-agent';
import type { CallIds } from './call-ids';
import type { Memory } from './memory';
import {
  answerWithoutRunning,
  CANCELLED_OBSERVATION,
  type ToolCallOutcome,
  type ToolExecutionContext,
} from './tool-execution';
import { fromToolCalls, toolMessage } from './messages';
import { shrinkArguments } from './tool-arguments';

/** What the hooks may touch in the agent. */
export interface LoopAccess {
  readonly agent: string;
  readonly memory: Memory;
  readonly tools: ToolRegistry;
  addMessage(message: Message): number;
  /** the run's call ids: an added call's id is reserved so later ones stay unique */
  readonly callIds: CallIds;
  readonly emit: (event: RunEventPayload) => void;
}

export class LoopDebugHooks {
  /** calls the user skipped: id -> the observation the model gets instead */
  private readonly skips = new Map<string, string>();

  constructor(
    private readonly gate: DebugGate | undefined,
    private readonly loop: LoopAccess,
  ) {}

  /** The step's model call with the pauses around it; `isTyped`: the user wrote the reply. */
  async modelTurn(
    context: StepContext,
    callModel: () => Promise<ChatResponse>,
  ): Promise<{ response: ChatResponse; isTyped: boolean }> {
    const gate = this.gate;
    if (!gate) return { response: await callModel(), isTyped: false };
    let edits = new ContextEdits(this.loop, context.step);
    const request = { agent: this.loop.agent, signal: context.signal, session: edits };
    const wait = gate.gate({ ...request, point: 'before_model' });
    if (wait) await wait;
    for (;;) {
      if (edits.reply) return { response: edits.reply, isTyped: true };
      try {
        return { response: await callModel(), isTyped: false };
      } catch (error) {
        if (isCancellation(error, context.signal)) throw error;
        edits = new ContextEdits(this.loop, context.step);
        const message = error instanceof Error ? error.message : String(error);
        const paused = gate.modelError({
          ...request,
          session: edits,
          point: 'model_error',
          error: message,
        });
        if (!paused) throw error;
        await paused;
      }
    }
  }

  /**
   * The calls as they will run, after a pause for approval or edits if one is due. A run
   * stopped during that pause keeps the proposal in memory, each call answered as
   * cancelled, as a stop during the calls would.
   */
  async beforeTools(
    context: StepContext,
    calls: ToolCall[],
    content: string | null,
  ): Promise<ToolCall[]> {
    if (!this.gate) return calls;
    const batch = new ToolBatch(this.loop, context.step, calls);
    const wait = this.gate.gate({
      agent: this.loop.agent,
      point: 'before_tools',
      signal: context.signal,
      calls,
      session: batch,
    });
    if (!wait) return calls;
    try {
      await wait;
    } catch (error) {
      this.loop.addMessage(fromToolCalls(batch.calls.map(shrinkArguments), content));
      const ctx = { agent: this.loop.agent, step: context.step, emit: this.loop.emit };
      for (const call of batch.calls) {
        const outcome = answerWithoutRunning(call, CANCELLED_OBSERVATION, {
          ...ctx,
          maxObserve: undefined,
        });
        this.loop.addMessage(toolMessage(outcome.observation, call.id, call.function.name));
      }
      throw error;
    }
    for (const [id, observation] of batch.skips) this.skips.set(id, observation);
    return batch.calls;
  }

  /**
   * Answers a call the user skipped, without running it: its tool.started and
   * tool.finished, and the user's observation as what the model sees.
   */
  skipped(call: ToolCall, ctx: Pick<ToolExecutionContext, 'agent' | 'step' | 'emit'>) {
    const observation = this.skips.get(call.id);
    if (observation === undefined) return undefined;
    this.skips.delete(call.id);
    const base = {
      agent: ctx.agent,
      step: ctx.step,
      toolCallId: call.id,
      name: call.function.name,
    };
    ctx.emit({ type: 'tool.started', ...base, args: parseOr(call.function.arguments) });
    ctx.emit({
      type: 'tool.finished',
      ...base,
      ok: false,
      output: '',
      error: `Skipped by the user; the model is told: ${observation}`,
      durationMs: 0,
      skipped: true,
    });
    return { ok: false, observation, invalid: null } satisfies ToolCallOutcome;
  }
}

type Applied = ReturnType<PauseSession['apply']>;

/** Edits before a model call: the context window, and a reply typed in its place. */
class ContextEdits implements PauseSession {
  reply: ChatResponse | null = null;

  constructor(
    private readonly loop: LoopAccess,
    private readonly step: number,
  ) {}

  apply(edit: DebugEdit): Applied {
    switch (edit.kind) {
      case 'edit_message': {
        const before = this.loop.memory.replaceContent(edit.index, edit.content);
        if (!before) {
          const indexes = this.loop.memory.entries.map((e) => e.index);
          throw new DebugError(
            'not_found',
            `Message #${edit.index} is not in ${this.loop.agent}'s context window (it holds #${indexes[0] ?? 0}–#${indexes.at(-1) ?? 0}).`,
          );
        }
        return {
          record: {
            kind: 'edit_message',
            index: edit.index,
            role: before.role,
            before: before.content,
            after: edit.content,
          },
        };
      }
      case 'add_message': {
        const index = this.loop.addMessage({ role: edit.role, content: edit.content });
        return {
          record: { kind: 'add_message', index, role: edit.role, content: edit.content },
          index,
        };
      }
      case 'provide_reply': {
        const toolCalls = (edit.toolCalls ?? []).map((c) =>
          newCall(this.loop, this.step, c.name, c.arguments),
        );
        this.reply = {
          content: edit.content,
          toolCalls,
          finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
          usage: { prompt: 0, completion: 0 },
          model: 'typed by the user',
        };
        return { record: { kind: 'provide_reply', content: edit.content, toolCalls } };
      }
      default:
        throw new DebugError('conflict', `${edit.kind} does not apply before a model call.`);
    }
  }
}

/** Edits of the proposed calls before any of them runs. */
class ToolBatch implements PauseSession {
  readonly skips = new Map<string, string>();
  private readonly decided = new Set<string>();
  calls: ToolCall[];

  constructor(
    private readonly loop: LoopAccess,
    private readonly step: number,
    proposed: ToolCall[],
  ) {
    this.calls = proposed.slice();
  }

  apply(edit: DebugEdit): Applied {
    if (edit.kind === 'add_call') {
      const call = newCall(this.loop, this.step, edit.name, edit.arguments);
      this.calls.push(call);
      this.decided.add(call.id);
      const record: EditRecord = {
        kind: 'add_call',
        toolCallId: call.id,
        name: call.function.name,
        arguments: call.function.arguments,
      };
      return { record, toolCallId: call.id };
    }
    if (edit.kind !== 'approve_call' && edit.kind !== 'edit_call' && edit.kind !== 'skip_call')
      throw new DebugError('conflict', `${edit.kind} does not apply before tool calls run.`);
    const position = this.calls.findIndex((c) => c.id === edit.toolCallId);
    const call = this.calls[position];
    if (!call) {
      throw new DebugError(
        'not_found',
        `No proposed call ${edit.toolCallId} (the calls are: ${this.calls.map((c) => c.id).join(', ')}).`,
      );
    }
    const name = call.function.name;
    this.decided.add(call.id);
    switch (edit.kind) {
      case 'approve_call':
        this.skips.delete(call.id);
        return { record: { kind: 'approve_call', toolCallId: call.id, name } };
      case 'edit_call': {
        const after = jsonObject(edit.arguments, name);
        this.skips.delete(call.id);
        this.calls[position] = { ...call, function: { name, arguments: after } };
        return {
          record: {
            kind: 'edit_call',
            toolCallId: call.id,
            name,
            before: call.function.arguments,
            after,
          },
        };
      }
      case 'skip_call': {
        const observation = edit.observation.trim() || 'The user skipped this call.';
        this.skips.set(call.id, observation);
        return { record: { kind: 'skip_call', toolCallId: call.id, name, observation } };
      }
    }
  }

  finish(awaitingApproval: readonly string[]): EditRecord[] {
    return awaitingApproval
      .filter((id) => !this.decided.has(id))
      .flatMap((id) => {
        const call = this.calls.find((c) => c.id === id);
        return call
          ? [{ kind: 'approve_call' as const, toolCallId: id, name: call.function.name }]
          : [];
      });
  }
}

/** A call the user adds or types: a known tool, JSON-object arguments, a fresh id. */
function newCall(loop: LoopAccess, step: number, name: string, args: string): ToolCall {
  if (!loop.tools.get(name)) {
    throw new DebugError(
      'invalid_input',
      `${loop.agent} has no tool "${name}" (its tools: ${loop.tools.names.join(', ')}).`,
    );
  }
  const text = jsonObject(args, name);
  let id = `call_user_${step}_1`;
  for (let n = 2; loop.callIds.has(id); n++) id = `call_user_${step}_${n}`;
  loop.callIds.claim(id);
  return { id, type: 'function', function: { name, arguments: text } };
}

/** Arguments must be one JSON object, as the model would send them; returned compact. */
function jsonObject(text: string, tool: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text.trim() || '{}');
  } catch (error) {
    throw new DebugError(
      'invalid_input',
      `The arguments of ${tool} are not valid JSON: ${(error as Error).message}`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new DebugError('invalid_input', `The arguments of ${tool} must be a JSON object.`);
  return JSON.stringify(value);
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
