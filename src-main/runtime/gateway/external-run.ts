/**
 * One external agent's run, as the gateway records it: each model call is a step, with
 * the same events a built-in agent's step has (docs/gateway.md, "What a step records").
 *
 * A step starts when the agent's call arrives: the messages new since the previous call
 * (the previous request and the reply the agent got) are appended to memory; tool
 * messages that answer the previous step's tool calls close those calls first
 * (`tool.finished` of the previous step, which then finishes). The reply is recorded
 * (`llm.responded`, the assistant message, stuck detection by the built-in rule) and its
 * tool calls are started: the agent runs them, and its next call brings their results.
 */
import type { RunResult } from '@shared/domain/agent';
import type { Message, ToolCall } from '@shared/domain/message';
import type { RequestParams, RequestTool, RunEventPayload } from '@shared/events';
import type { RunDebugger } from '../debug/run-debugger';
import { detectStuck } from '../loop/stuck-detector';
import type { MemoryEntry } from '../loop/memory';
import { toEventMessage } from '../loop/event-message';
import { eventMessagesOf } from '../llm/request-record';
import { estimateMessageTokens } from '../llm/token-estimate';
import type { ChatReply } from './chat-reply';
import { commonPrefix } from './wire-messages';
import { createHash } from 'node:crypto';

/** The built-in agents' default (`[agent] duplicate_threshold`). */
const DUPLICATE_THRESHOLD = 2;

export interface ExternalRunContext {
  runId: string;
  emit: (event: RunEventPayload) => void;
  debug: RunDebugger;
  /** aborted when the run is stopped (UI, CLI, deletion) */
  signal: AbortSignal;
}

/** What `llm.requested` records of the request besides its messages. */
export interface RequestShape {
  model: string;
  params?: RequestParams;
  tools?: RequestTool[];
  toolChoice?: 'auto' | 'required' | 'none';
}

interface OpenCalls {
  step: number;
  calls: ToolCall[];
}

export class ExternalRun {
  readonly agent: string;
  private context: ExternalRunContext | null = null;
  private readonly isReady: Promise<ExternalRunContext>;
  private markReady!: (context: ExternalRunContext) => void;
  private finish!: (result: RunResult) => void;
  /** resolves with the run's result when it ends (idle, closed or stopped) */
  readonly done: Promise<RunResult>;
  /** the last request's messages and the reply the agent got: the conversation so far */
  conversation: Message[] = [];
  /** memory index of each conversation position (system messages have none) */
  private indexes: (number | undefined)[] = [];
  private readonly memory: MemoryEntry[] = [];
  private nextIndex = 0;
  step = 0;
  private stepStartedAt = 0;
  private open: OpenCalls | null = null;
  private lastSystem: string | undefined;
  private lastToolsHash: string | undefined;
  private readonly usage = { prompt: 0, completion: 0 };
  private isEnded = false;
  /** calls of this run in flight (an idle run is one with none, for the idle time) */
  inFlight = 0;
  lastActivity = Date.now();
  /** told when a step ends (its sandbox session takes the step's checkpoint) */
  onStepFinished: ((step: number) => void) | undefined;

  constructor(
    readonly name: string,
    readonly isNamed: boolean,
  ) {
    this.agent = `external: ${name}`;
    this.isReady = new Promise((resolve) => (this.markReady = resolve));
    this.done = new Promise((resolve) => (this.finish = resolve));
  }

  get ended(): boolean {
    return this.isEnded;
  }

  get runId(): string | undefined {
    return this.context?.runId;
  }

  /** The run manager started the run: its events may flow from now on. */
  attach(context: ExternalRunContext): void {
    this.context = context;
    context.emit({ type: 'state.changed', agent: this.agent, from: 'IDLE', to: 'RUNNING' });
    context.signal.addEventListener('abort', () => this.end('cancelled'), { once: true });
    this.markReady(context);
  }

  ready(): Promise<ExternalRunContext> {
    return this.isReady;
  }

  get debug(): RunDebugger {
    return this.ctx().debug;
  }

  get signal(): AbortSignal {
    return this.ctx().signal;
  }

  /** Would this request continue the conversation (its messages extend it)? */
  continues(messages: readonly Message[]): boolean {
    const known = this.conversation.length;
    return (
      known > 0 && messages.length > known && commonPrefix(this.conversation, messages) === known
    );
  }

  /**
   * A call arrived: the previous step ends with the results of its tool calls, the new
   * step starts with the new messages in memory. Answers the step's number and the
   * messages new in this call (what a replay compares).
   */
  openStep(messages: readonly Message[]): { step: number; fresh: Message[] } {
    const { emit } = this.ctx();
    this.lastActivity = Date.now();
    const shared = commonPrefix(this.conversation, messages);
    const indexes = this.indexes.slice(0, shared);
    const fresh = messages.slice(shared);
    const rest: { message: Message; position: number }[] = [];
    fresh.forEach((message, i) => {
      const position = shared + i;
      const open = this.open;
      if (
        open &&
        message.role === 'tool' &&
        message.tool_call_id !== undefined &&
        open.calls.some((c) => c.id === message.tool_call_id)
      ) {
        const call = open.calls.find((c) => c.id === message.tool_call_id)!;
        open.calls = open.calls.filter((c) => c !== call);
        emit({
          type: 'tool.finished',
          agent: this.agent,
          step: open.step,
          toolCallId: call.id,
          name: call.function.name,
          ok: true,
          output: message.content ?? '',
          durationMs: 0,
        });
        indexes[position] = this.append(message, true);
      } else rest.push({ message, position });
    });
    this.closeOpenStep('The agent sent no result for this call in its next request.');
    this.step += 1;
    this.stepStartedAt = performance.now();
    emit({ type: 'step.started', agent: this.agent, step: this.step, maxSteps: 0 });
    for (const { message, position } of rest) {
      indexes[position] = message.role === 'system' ? undefined : this.append(message, false);
    }
    this.indexes = indexes;
    this.conversation = [...messages];
    return { step: this.step, fresh };
  }

  /** `llm.requested` for the step's request (after any edit at the pause before it). */
  requested(messages: readonly Message[], shape: RequestShape): void {
    const { emit } = this.ctx();
    this.conversation = [...messages];
    const systems = messages.filter((m) => m.role === 'system');
    const system = systems.map((m) => m.content ?? '').join('\n\n');
    const isMemoryShaped =
      systems.length <= 1 &&
      (systems.length === 0 || messages[0]?.role === 'system') &&
      messages.filter((m) => m.role !== 'system').length === this.memory.length;
    const tools = shape.tools ?? [];
    const toolsHash =
      tools.length > 0
        ? createHash('sha256').update(JSON.stringify(tools)).digest('hex').slice(0, 16)
        : undefined;
    emit({
      type: 'llm.requested',
      agent: this.agent,
      step: this.step,
      model: shape.model,
      messageCount: messages.length,
      inputTokens: messages.reduce((sum, m) => sum + estimateMessageTokens(m), 0),
      ...(system && system !== this.lastSystem ? { system } : {}),
      ...(shape.params ? { params: shape.params } : {}),
      ...(toolsHash ? { toolChoice: shape.toolChoice ?? 'auto', toolsHash } : {}),
      ...(toolsHash && toolsHash !== this.lastToolsHash ? { tools } : {}),
      // a request that is not the system prompt and memory in order is recorded whole
      ...(isMemoryShaped ? {} : { messages: eventMessagesOf(messages) }),
    });
    if (system) this.lastSystem = system;
    if (toolsHash) this.lastToolsHash = toolsHash;
  }

  /** The reply the upstream gave (or the recording, or the user): recorded as the step's. */
  responded(reply: ChatReply, durationMs: number, isCounted: boolean): void {
    const { emit } = this.ctx();
    this.lastActivity = Date.now();
    const usage = isCounted && reply.usage ? reply.usage : { prompt: 0, completion: 0 };
    this.usage.prompt += usage.prompt;
    this.usage.completion += usage.completion;
    emit({
      type: 'llm.responded',
      agent: this.agent,
      step: this.step,
      model: reply.model,
      content: reply.content,
      toolCalls: reply.toolCalls,
      usage,
      durationMs: Math.round(durationMs),
      finishReason: reply.finishReason,
      ...(reply.usage ? { usageSource: 'provider' as const } : {}),
    });
    const message: Message = {
      role: 'assistant',
      content: reply.content,
      ...(reply.toolCalls.length > 0 ? { tool_calls: reply.toolCalls } : {}),
    };
    const index = this.append(message, false);
    for (const hit of detectStuck(this.memory, index, DUPLICATE_THRESHOLD)) {
      emit({ type: 'stuck.detected', agent: this.agent, step: this.step, ...hit });
    }
    this.conversation.push(message);
    this.indexes.push(index);
  }

  /**
   * The reply goes to the agent (as edited at the pause before its tool calls): its tool
   * calls start; the agent's next request brings their results.
   */
  delivered(reply: ChatReply): void {
    const { emit } = this.ctx();
    const last = this.conversation.length - 1;
    this.conversation[last] = {
      role: 'assistant',
      content: reply.content,
      ...(reply.toolCalls.length > 0 ? { tool_calls: reply.toolCalls } : {}),
    };
    for (const call of reply.toolCalls) {
      emit({
        type: 'tool.started',
        agent: this.agent,
        step: this.step,
        toolCallId: call.id,
        name: call.function.name,
        args: parseArgs(call.function.arguments),
      });
    }
    this.open =
      reply.toolCalls.length > 0 ? { step: this.step, calls: [...reply.toolCalls] } : null;
  }

  /** The call failed (upstream error, stopped, diverged replay): the agent gets the error. */
  failed(error: string, status: number | null): void {
    if (this.isEnded) return;
    this.ctx().emit({
      type: 'llm.retried',
      agent: this.agent,
      step: this.step,
      attempt: 1,
      status,
      delayMs: 0,
      error,
    });
  }

  /** Another part of the workbench records into this run (the sandbox MCP server's calls). */
  record(event: RunEventPayload): boolean {
    if (this.isEnded || !this.context) return false;
    this.context.emit(event);
    return true;
  }

  /** The run ends: open calls are closed, then `run.finished` follows (the run manager's). */
  end(outcome: 'finished' | 'cancelled'): void {
    if (this.isEnded) return;
    this.isEnded = true;
    const context = this.context;
    if (context) {
      this.closeOpenStep(
        outcome === 'cancelled'
          ? 'The run was stopped before the agent sent a result.'
          : 'The run ended before the agent sent a result.',
      );
      context.emit({
        type: 'state.changed',
        agent: this.agent,
        from: 'RUNNING',
        to: 'FINISHED',
      });
    }
    this.finish({
      outcome,
      state: 'FINISHED',
      steps: this.step,
      usage: { ...this.usage },
      stepResults: [],
    });
  }

  private closeOpenStep(reason: string): void {
    const { emit } = this.ctx();
    const open = this.open;
    this.open = null;
    for (const call of open?.calls ?? []) {
      emit({
        type: 'tool.finished',
        agent: this.agent,
        step: open!.step,
        toolCallId: call.id,
        name: call.function.name,
        ok: false,
        output: '',
        error: reason,
        durationMs: 0,
      });
    }
    if (this.step > 0) {
      emit({
        type: 'step.finished',
        agent: this.agent,
        step: this.step,
        durationMs: Math.round(performance.now() - this.stepStartedAt),
      });
      this.onStepFinished?.(this.step);
    }
  }

  private append(message: Message, followsTurn: boolean): number {
    const index = this.nextIndex++;
    this.memory.push({ index, message, followsTurn });
    this.ctx().emit({
      type: 'memory.appended',
      agent: this.agent,
      index,
      message: toEventMessage(message),
    });
    return index;
  }

  /** the memory index of a conversation position (for edits at a pause) */
  indexAt(position: number): number | undefined {
    return this.indexes[position];
  }

  positionOf(index: number): number {
    return this.indexes.indexOf(index);
  }

  /** a message the user added at a pause joins memory */
  added(message: Message): number {
    const index = this.append(message, false);
    this.indexes[this.conversation.length] = index;
    this.conversation.push(message);
    return index;
  }

  private ctx(): ExternalRunContext {
    if (!this.context) throw new Error(`The run of ${this.agent} has not started yet.`);
    return this.context;
  }
}

function parseArgs(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
