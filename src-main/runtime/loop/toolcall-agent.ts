/**
 * ToolCallAgent: think (one model call with the tools) then act (run the requested tool
 * calls in order). OpenManus agent/toolcall.py (a ReAct agent on native tool calling),
 * with its defects fixed:
 *
 * - `tool_choice`: auto, required (a reply without a tool call gets a reprompt instead of
 *   crashing the run: fixes 7.2 item 5; three in a row end the run as ERROR), none (tools
 *   are declared but disabled; a call the model makes anyway is answered, not run).
 * - A text-only reply in auto mode follows `text_reply_policy` (fixes 7.2 item 2: the
 *   original chatted with itself until the step limit):
 *     reprompt_once (default)  one "call a tool or terminate" reprompt; a second reply in
 *                              a row without a tool call finishes the run with that answer;
 *     finish                   the reply is the answer: the run finishes at once;
 *     continue                 the original's behaviour: the loop goes on.
 *   An empty reply counts as a text reply, but a run never finishes on one: where a text
 *   reply would end the run, an empty one ends it as ERROR. With tool_choice none, a
 *   reply finishes the run unless the policy is `continue` (there is no tool to call).
 * - Special tools (`terminate` by default) end the run; the rest of the batch is answered
 *   but not executed (fixes 7.2 item 6).
 * - Every tool call gets exactly one tool.started, one tool.finished and one tool message,
 *   also when it is not executed, when the run is stopped mid-batch, or when the reply was
 *   cut off at max_tokens (`finish_reason: length`: its calls are treated as invalid
 *   arguments, reliability.md 3.2 d). Duplicate or missing call ids are made unique.
 * - Unknown tools: an error observation each; three in a row end the run as ERROR.
 * - Observations are capped at `max_observe` with a visible marker (observation.ts).
 * - Images returned by tools go on a user message after the batch (never on the tool
 *   message, which OpenAI rejects: 7.2 item 4).
 */
import type { Message, MessageImage, ToolCall } from '@shared/domain/message';
import type { TEXT_REPLY_POLICIES } from '../config/schema';
import type { ChatRequest, ChatResponse, LlmClient, ToolChoice } from '../llm/llm-client';
import { LlmError } from '../llm/llm-error';
import { CancelledError } from '../util/abort';
import type { ToolRegistry } from '../tools/tool-registry';
import {
  AgentError,
  type AgentEnvironment,
  type AgentSettings,
  type StepContext,
} from './base-agent';
import { DeltaBatcher } from './delta-batcher';
import { LoopDebugHooks } from './debug-hooks';
import { CallIds } from './call-ids';
import { ReActAgent } from './react-agent';
import { fromToolCalls, systemMessage, toolMessage, userMessage } from './messages';
import { shrinkArguments } from './tool-arguments';
import {
  answerWithoutRunning,
  CANCELLED_OBSERVATION,
  executeToolCall,
  ToolCancelled,
  type ToolCallOutcome,
  type ToolExecutionContext,
} from './tool-execution';

export type TextReplyPolicy = (typeof TEXT_REPLY_POLICIES)[number];

export interface ToolCallAgentSettings extends AgentSettings {
  systemPrompt?: string;
  nextStepPrompt?: string;
  specialToolNames?: string[];
  maxObserve?: number;
  toolChoice?: ToolChoice;
  textReplyPolicy?: TextReplyPolicy;
}

export interface ToolCallAgentDeps {
  llm: LlmClient;
  tools: ToolRegistry;
}

export const TOOLCALL_DEFAULT_MAX_STEPS = 30;
import { RequestRecorder } from '../llm/request-record';
import {
  EMPTY_ANSWER_ERROR,
  MAX_REQUIRED_MISSES,
  MAX_TIMEOUT_STREAK,
  MAX_UNKNOWN_TOOL_STREAK,
  REQUIRED_REPROMPT,
  TEXT_REPLY_REPROMPT,
  TRUNCATED_REASON,
  DISABLED_REASON,
} from './loop-limits';
import { respondedEvent } from '../llm/responded-event';
type PendingMode = 'run' | 'truncated';

export class ToolCallAgent extends ReActAgent {
  protected readonly llm: LlmClient;
  readonly tools: ToolRegistry;
  protected systemPrompt: string | undefined;
  protected nextStepPrompt: string | undefined;
  /** the system prompt last reported in an `llm.requested` event */
  private emittedSystemPrompt: string | undefined;
  /** sampling parameters and the tool list (by reference) for `llm.requested` */
  private readonly requestRecorder = new RequestRecorder();
  /** the nudge the request being built carries */
  private requestNudge: string | undefined;
  protected readonly specialToolNames: Set<string>;
  protected readonly maxObserve: number | undefined;
  protected readonly toolChoice: ToolChoice;
  protected readonly textReplyPolicy: TextReplyPolicy;

  private pendingCalls: ToolCall[] = [];
  private pendingMode: PendingMode = 'run';
  private noToolStreak = 0;
  private unknownToolStreak = 0;
  /** consecutive tool calls that timed out (reliability S7: three in a row end the run) */
  private timeoutStreak = 0;
  private readonly callIds = new CallIds();
  private systemMessageCache: Message | null = null;
  /** what `step` reports when the model called no tool */
  private noActionNote = 'Thinking complete - no action needed';
  /** the debugger's safe points: pause, breakpoints, approval and edits (debug-hooks.ts) */
  private readonly debug: LoopDebugHooks;

  constructor(settings: ToolCallAgentSettings, deps: ToolCallAgentDeps, env: AgentEnvironment) {
    super({ ...settings, maxSteps: settings.maxSteps ?? TOOLCALL_DEFAULT_MAX_STEPS }, env);
    this.llm = deps.llm;
    this.tools = deps.tools;
    this.systemPrompt = settings.systemPrompt;
    this.nextStepPrompt = settings.nextStepPrompt;
    this.specialToolNames = new Set(settings.specialToolNames ?? ['terminate']);
    this.maxObserve = settings.maxObserve;
    this.toolChoice = settings.toolChoice ?? 'auto';
    this.textReplyPolicy = settings.textReplyPolicy ?? 'reprompt_once';
    this.debug = new LoopDebugHooks(env.debug, {
      agent: this.name,
      memory: this.memory,
      tools: this.tools,
      addMessage: (message) => this.addMessage(message),
      callIds: this.callIds,
      emit: env.emit,
    });
  }

  protected override beforeRun(): void {
    this.noToolStreak = 0;
    this.unknownToolStreak = 0;
    this.timeoutStreak = 0;
    this.pendingCalls = [];
  }

  protected override noActionSummary(): string {
    return this.noActionNote;
  }

  /** Asks the model for the next move; true when it asked for tool calls. */
  protected async think(context: StepContext): Promise<boolean> {
    if (this.nextStepPrompt) this.addMessage(userMessage(this.nextStepPrompt));
    const { response, isTyped } = await this.debug.modelTurn(context, () =>
      this.callModel(context),
    );
    let calls = response.toolCalls;
    // The user may approve, edit, skip or add calls before any runs (and memory keeps them).
    const isRunnable = this.toolChoice !== 'none' && response.finishReason !== 'length';
    if (calls.length > 0 && !isTyped && isRunnable)
      calls = await this.debug.beforeTools(context, calls, response.content);
    this.addMessage(fromToolCalls(calls.map(shrinkArguments), response.content));
    if (calls.length > 0 && this.toolChoice === 'none') {
      // Called anyway: each call is answered (pairing), none runs, and the reply counts
      // as one without a tool call.
      for (const call of calls) {
        this.addToolMessage(
          call,
          answerWithoutRunning(call, DISABLED_REASON, this.toolContext(context)),
        );
      }
    } else if (calls.length > 0) {
      this.noToolStreak = 0;
      this.pendingCalls = calls;
      this.pendingMode = response.finishReason === 'length' ? 'truncated' : 'run';
      return true;
    }
    this.onNoToolCall(response);
    return false;
  }

  /** The model call with its events: requested, deltas, retries, responded. */
  protected async callModel(context: StepContext): Promise<ChatResponse> {
    const request: ChatRequest = {
      messages: this.requestMessages(),
      tools: this.tools.specs(),
      toolChoice: this.toolChoice,
    };
    const { emit } = this.env;
    const started = performance.now();
    emit({
      type: 'llm.requested',
      agent: this.name,
      step: context.step,
      model: this.llm.model,
      messageCount: request.messages.length,
      inputTokens: this.llm.countTokens?.(request) ?? 0,
      ...(this.llm.maxAttempts !== undefined ? { maxAttempts: this.llm.maxAttempts } : {}),
      // What the request carries beyond memory, so a UI can show exactly what was sent.
      ...(this.systemPrompt && this.systemPrompt !== this.emittedSystemPrompt
        ? { system: this.systemPrompt }
        : {}),
      ...(this.requestNudge ? { nudge: this.requestNudge } : {}),
      ...this.requestRecorder.fields(request, this.llm),
    });
    this.emittedSystemPrompt = this.systemPrompt;
    const deltas = new DeltaBatcher((text) =>
      emit({ type: 'llm.delta', agent: this.name, step: context.step, text }),
    );
    let answer: ChatResponse;
    try {
      answer = await this.llm.complete(request, {
        signal: context.signal,
        onDelta: (text) => deltas.push(text),
        onRetry: (notice) =>
          emit({ type: 'llm.retried', agent: this.name, step: context.step, ...notice }),
        onQueued: (notice) =>
          emit({
            type: 'llm.queued',
            agent: this.name,
            step: context.step,
            model: this.llm.model,
            ...notice,
          }),
      });
    } catch (error) {
      deltas.flush();
      // What the model streamed before a failure or a stop was shown; keep it in history.
      const partial =
        error instanceof LlmError || error instanceof CancelledError
          ? error.partialContent
          : undefined;
      if (partial) this.addMessage({ role: 'assistant', content: partial });
      throw error;
    }
    deltas.flush();
    // The ids the events show are the ones memory keeps and the results answer.
    const response = { ...answer, toolCalls: this.callIds.unique(answer.toolCalls, context.step) };
    this.addUsage(response.usage);
    emit(respondedEvent(this.name, context.step, response, started));
    return response;
  }

  /** System prompt, the memory window, and this step's stuck nudge if there is one. */
  protected requestMessages(): Message[] {
    const messages: Message[] = [];
    if (this.systemPrompt) {
      if (this.systemMessageCache?.content !== this.systemPrompt) {
        this.systemMessageCache = systemMessage(this.systemPrompt);
      }
      messages.push(this.systemMessageCache);
    }
    for (const message of this.memory.messages) messages.push(message);
    const nudge = this.takeNudge();
    this.requestNudge = nudge ?? undefined;
    if (nudge) messages.push(userMessage(nudge));
    return messages;
  }

  private onNoToolCall(response: ChatResponse): void {
    this.noToolStreak += 1;
    if (this.toolChoice === 'required') {
      if (this.noToolStreak >= MAX_REQUIRED_MISSES) {
        throw new AgentError(
          `The model answered ${this.noToolStreak} times in a row without calling a tool although tool_choice is "required".`,
        );
      }
      this.addMessage(userMessage(REQUIRED_REPROMPT));
      this.noActionNote = 'No tool called: reprompted (tool_choice required)';
      return;
    }
    if (this.textReplyPolicy === 'continue') {
      this.noActionNote = 'Thinking complete - no action needed';
      return;
    }
    const finishNow =
      this.toolChoice === 'none' || this.textReplyPolicy === 'finish' || this.noToolStreak >= 2;
    if (finishNow) {
      // An empty answer is not a result: ending "finished" would claim success for a run
      // that did nothing (issue 16 item 5: a server that drops streamed tool calls).
      if (!response.content?.trim()) throw new AgentError(EMPTY_ANSWER_ERROR);
      this.noActionNote = 'Finished: the model answered without calling a tool';
      this.finishRun();
      return;
    }
    this.addMessage(userMessage(TEXT_REPLY_REPROMPT));
    this.noActionNote = 'No tool called: reprompted once';
  }

  /** Runs the pending calls in order; see the file comment for what is answered how. */
  protected async act(context: StepContext): Promise<string> {
    const calls = this.pendingCalls;
    const mode = this.pendingMode;
    this.pendingCalls = [];
    const results: string[] = [];
    const images: { call: ToolCall; image: MessageImage }[] = [];
    const ctx = this.toolContext(context);
    let next = 0;
    const answerRest = (reason: string) => {
      for (; next < calls.length; next++) {
        const call = calls[next]!;
        this.addToolMessage(call, answerWithoutRunning(call, reason, ctx));
      }
    };
    try {
      for (; next < calls.length; next++) {
        const call = calls[next]!;
        if (mode === 'truncated') {
          const outcome = answerWithoutRunning(call, TRUNCATED_REASON, ctx, 'arguments');
          this.addToolMessage(call, outcome);
          results.push(outcome.observation);
          continue;
        }
        if (!this.isRunning()) {
          answerRest(`Not executed: ${this.name} finished before this call.`);
          break;
        }
        if (context.signal.aborted) throw context.signal.reason ?? new Error('cancelled');
        const skipped = this.debug.skipped(call, ctx);
        if (skipped) {
          this.addToolMessage(call, skipped);
          results.push(skipped.observation);
          continue;
        }
        let outcome: ToolCallOutcome;
        try {
          outcome = await executeToolCall(call, ctx);
        } catch (error) {
          if (!(error instanceof ToolCancelled)) throw error;
          this.addToolMessage(call, error.outcome);
          next++;
          throw error.reason;
        }
        this.addToolMessage(call, outcome);
        results.push(outcome.observation);
        if (outcome.image) images.push({ call, image: outcome.image });
        this.unknownToolStreak =
          outcome.invalid === 'unknown_tool' ? this.unknownToolStreak + 1 : 0;
        if (outcome.endsRun) {
          next++;
          answerRest(
            `Not executed: the run was stopped by the \`${call.function.name}\` call before it.`,
          );
          throw new AgentError(outcome.observation.replace(/^Error: /, ''));
        }
        this.timeoutStreak = outcome.timedOut ? this.timeoutStreak + 1 : 0;
        if (this.timeoutStreak >= MAX_TIMEOUT_STREAK) {
          next++;
          answerRest('Not executed: the run was stopped because tool calls kept timing out.');
          throw new AgentError(
            `${MAX_TIMEOUT_STREAK} tool calls in a row timed out and were stopped; the run ends here ` +
              'instead of spending its steps waiting. Give long commands more time (the timeout ' +
              'parameter, or [sandbox] timeout in config.toml), or run them in the background.',
          );
        }
        if (this.unknownToolStreak >= MAX_UNKNOWN_TOOL_STREAK) {
          next++;
          answerRest(
            'Not executed: the run was stopped because the model kept calling unknown tools.',
          );
          throw new AgentError(
            `The model repeatedly called unknown tools (${MAX_UNKNOWN_TOOL_STREAK} calls in a row); the tools it can call are: ${this.tools.names.join(', ')}.`,
          );
        }
        if (outcome.ok && this.specialToolNames.has(call.function.name)) {
          this.finishRun(outcome.terminateStatus);
        }
      }
    } catch (error) {
      // Whatever ended the batch, every call still gets its one tool message.
      answerRest(CANCELLED_OBSERVATION);
      throw error;
    } finally {
      for (const { call, image } of images) {
        this.addMessage(
          userMessage(
            `Image returned by the \`${call.function.name}\` call ${call.id} (${image.mimeType}).`,
            image,
          ),
          { followsTurn: true },
        );
      }
    }
    return results.join('\n\n');
  }

  private toolContext(context: StepContext): ToolExecutionContext {
    return {
      tools: this.tools,
      agent: this.name,
      runId: this.env.runId,
      step: context.step,
      signal: context.signal,
      emit: this.env.emit,
      maxObserve: this.maxObserve,
    };
  }

  private addToolMessage(call: ToolCall, outcome: ToolCallOutcome): void {
    this.addMessage(toolMessage(outcome.observation, call.id, call.function.name));
  }

  protected fail(message: string): never {
    throw new AgentError(message);
  }

  /** Replaces the system prompt from the next request on (e.g. an MCP server's tools changed). */
  updateSystemPrompt(prompt: string): void {
    this.systemPrompt = prompt;
  }
}
