/**
 * BaseAgent: the OpenManus loop (agent/base.py) with its defects fixed.
 *
 * - A run ends in a terminal state that stays visible after `run()` returns, and `run()`
 *   returns a typed outcome (fixes 7.1 a: the original restored IDLE in `finally`).
 *   FINISHED covers the outcomes finished, max_steps and cancelled; ERROR the outcome error.
 * - The step counter restarts at every `run()` (fixes 7.1 b).
 * - Reaching the limit appends `Terminated: Reached max steps (N)` and ends with outcome
 *   `max_steps`.
 * - Cancellation is an AbortSignal threaded through every model call and tool; a stop
 *   ends the run with outcome `cancelled`.
 * - Stuck detection runs after every step on the step's own assistant message
 *   (stuck-detector.ts, fixes 7.1 d); a hit emits `stuck.detected` and leaves a nudge
 *   for the next step only (fixes 7.1 e: the original stacked it onto the prompt).
 * - Every state change, step and memory append is emitted as a RunEvent; every
 *   `step.started` gets its `step.finished`, also when the step fails or is stopped.
 */
import type { AgentState, RunOutcome, RunResult, TokenUsage } from '@shared/domain/agent';
import type { Message, MessageImage } from '@shared/domain/message';
import type { EventImage, RunEventPayload } from '@shared/events';
import type { DebugGate } from '../debug/gate';
import { isCancellation } from '../util/abort';
import { Memory, DEFAULT_MAX_MESSAGES, type MemoryEntry } from './memory';
import { toEventMessage } from './event-message';
import { detectStuck, STUCK_NUDGE } from './stuck-detector';

export interface AgentSettings {
  name: string;
  description?: string;
  /** default 10 (BaseAgent), 30 (ToolCallAgent); the catalog passes each agent's own */
  maxSteps?: number;
  maxMessages?: number;
  /** earlier identical replies that make the latest one "stuck" (default 2, as the original) */
  duplicateThreshold?: number;
}

export interface AgentEnvironment {
  /** receives every event this agent produces */
  emit: (event: RunEventPayload) => void;
  runId: string;
  /** the run's debugger: the loop awaits it at its safe points (absent: never pauses) */
  debug?: DebugGate;
  /**
   * awaited after each `step.finished` (the checkpoint: the sandbox's files at this step
   * boundary, docs/time-travel.md); it must not throw
   */
  atStepBoundary?: (agent: string, step: number) => Promise<void>;
  /**
   * stores a memory message's image beside the run's history before the event naming it
   * (absent: events carry only the image's type)
   */
  keepImage?: (image: MessageImage) => EventImage;
}

/** Where a fork or a resume picks the loop up (rebuilt from a history: timetravel/). */
export interface ResumePoint {
  /** the memory window at the checkpoint, with the indexes it had */
  entries: readonly MemoryEntry[];
  pinnedIndex: number | null;
  nextIndex: number;
  /** the last step the checkpoint had finished; the loop goes on with the next */
  step: number;
  /** a stuck nudge the checkpoint left for its next step */
  pendingNudge?: string;
  /** messages appended after the restored context (a fork's added message, "interrupted" answers) */
  append?: Message[];
}

export interface StepContext {
  step: number;
  signal: AbortSignal;
}

export const DEFAULT_MAX_STEPS = 10;
export const DEFAULT_DUPLICATE_THRESHOLD = 2;

/** Thrown inside a step to end the run as ERROR with a message meant for the user. */
export class AgentError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AgentError';
  }
}

export abstract class BaseAgent {
  readonly name: string;
  readonly description: string;
  maxSteps: number;
  readonly duplicateThreshold: number;
  memory: Memory;
  protected readonly env: AgentEnvironment;

  private agentState: AgentState = 'IDLE';
  private stepCounter = 0;
  protected usage: TokenUsage = { prompt: 0, completion: 0 };
  /** set by a special tool (terminate) to report how the agent finished */
  protected terminateStatus: string | undefined;
  /** memory index of the newest assistant message, for stuck detection */
  private lastAssistantIndex = -1;
  /** the newest assistant message already checked (a step without a reply checks nothing) */
  private lastCheckedIndex = -1;
  /** the stuck nudge waiting for the next step (taken once, never stacked) */
  private pendingNudge: string | null = null;

  constructor(settings: AgentSettings, env: AgentEnvironment) {
    const maxSteps = settings.maxSteps ?? DEFAULT_MAX_STEPS;
    if (!Number.isInteger(maxSteps) || maxSteps < 1) {
      throw new RangeError(`max_steps must be a positive integer, got ${maxSteps}`);
    }
    const threshold = settings.duplicateThreshold ?? DEFAULT_DUPLICATE_THRESHOLD;
    if (!Number.isInteger(threshold) || threshold < 1) {
      throw new RangeError(`duplicate_threshold must be a positive integer, got ${threshold}`);
    }
    this.name = settings.name;
    this.description = settings.description ?? '';
    this.maxSteps = maxSteps;
    this.duplicateThreshold = threshold;
    this.env = env;
    this.memory = this.createMemory(settings.maxMessages ?? DEFAULT_MAX_MESSAGES);
  }

  get state(): AgentState {
    return this.agentState;
  }

  /** A method, not a field read, so TypeScript does not keep a stale narrowing across awaits. */
  isRunning(): boolean {
    return this.agentState === 'RUNNING';
  }

  get currentStep(): number {
    return this.stepCounter;
  }

  /** One step of the loop; subclasses think and act here. Returns a one-line summary. */
  protected abstract step(context: StepContext): Promise<string>;

  /** Hook after each step that left the run going (stuck detection by default). */
  protected afterStep(context: StepContext): void {
    this.checkStuck(context);
  }

  /** Hook before the loop starts, after the task is in memory. */
  protected beforeRun(): void {}

  async run(
    task: string,
    options: { signal?: AbortSignal; resume?: ResumePoint } = {},
  ): Promise<RunResult> {
    if (this.agentState === 'RUNNING') {
      throw new AgentError(`Agent ${this.name} is already running`);
    }
    const signal = options.signal ?? new AbortController().signal;
    this.stepCounter = 0;
    this.usage = { prompt: 0, completion: 0 };
    this.terminateStatus = undefined;
    this.pendingNudge = null;
    const stepResults: string[] = [];

    this.setState('RUNNING');
    const resume = options.resume;
    if (resume) {
      this.memory.restore(resume.entries, resume.pinnedIndex, resume.nextIndex);
      this.stepCounter = resume.step;
      this.pendingNudge = resume.pendingNudge ?? null;
      for (const message of resume.append ?? []) this.addMessage(message);
    } else {
      this.memory.pinTask({ role: 'user', content: task });
    }
    this.beforeRun();

    let outcome: RunOutcome = 'finished';
    let error: string | undefined;
    try {
      while (this.stepCounter < this.maxSteps && this.isRunning()) {
        if (signal.aborted) throw signal.reason ?? new Error('cancelled');
        this.stepCounter += 1;
        const context: StepContext = { step: this.stepCounter, signal };
        const started = performance.now();
        this.env.emit({
          type: 'step.started',
          agent: this.name,
          step: this.stepCounter,
          maxSteps: this.maxSteps,
        });
        try {
          const result = await this.step(context);
          stepResults.push(`Step ${this.stepCounter}: ${result}`);
          if (this.isRunning()) this.afterStep(context);
        } finally {
          this.env.emit({
            type: 'step.finished',
            agent: this.name,
            step: this.stepCounter,
            durationMs: Math.round(performance.now() - started),
          });
        }
        await this.env.atStepBoundary?.(this.name, this.stepCounter);
      }
      if (this.isRunning()) {
        outcome = 'max_steps';
        const note = `Terminated: Reached max steps (${this.maxSteps})`;
        stepResults.push(note);
        this.addMessage({ role: 'assistant', content: note });
        this.setState('FINISHED');
      }
    } catch (caught) {
      if (isCancellation(caught, signal)) {
        outcome = 'cancelled';
        this.setState('FINISHED');
      } else {
        outcome = 'error';
        error = caught instanceof Error ? caught.message : String(caught);
        this.setState('ERROR');
      }
    }

    return {
      outcome,
      state: this.agentState,
      steps: this.stepCounter,
      usage: { ...this.usage },
      ...(this.terminateStatus !== undefined ? { terminateStatus: this.terminateStatus } : {}),
      ...(error !== undefined ? { error } : {}),
      stepResults,
    };
  }

  /** Ends the run as FINISHED after the current step (a special tool, a final answer). */
  protected finishRun(terminateStatus?: string): void {
    if (terminateStatus !== undefined) this.terminateStatus = terminateStatus;
    this.setState('FINISHED');
  }

  /** Appends to memory; the memory emits `memory.appended` with the message's stable index. */
  protected addMessage(message: Message, options?: { followsTurn?: boolean }): number {
    const index = this.memory.add(message, options);
    if (message.role === 'assistant') this.lastAssistantIndex = index;
    return index;
  }

  /** The nudge left by stuck detection, once: the step that takes it is the only one to see it. */
  protected takeNudge(): string | null {
    const nudge = this.pendingNudge;
    this.pendingNudge = null;
    return nudge;
  }

  protected setState(to: AgentState): void {
    const from = this.agentState;
    if (from === to) return;
    this.agentState = to;
    this.env.emit({ type: 'state.changed', agent: this.name, from, to });
  }

  protected addUsage(usage: TokenUsage): void {
    this.usage.prompt += usage.prompt;
    this.usage.completion += usage.completion;
  }

  private checkStuck(context: StepContext): void {
    if (this.lastAssistantIndex <= this.lastCheckedIndex) return;
    this.lastCheckedIndex = this.lastAssistantIndex;
    const hits = detectStuck(this.memory.entries, this.lastAssistantIndex, this.duplicateThreshold);
    for (const hit of hits) {
      this.env.emit({
        type: 'stuck.detected',
        agent: this.name,
        step: context.step,
        kind: hit.kind,
        count: hit.count,
        duplicateOf: hit.duplicateOf,
      });
    }
    // Replaced, not prepended: a second hit in a row still yields one nudge.
    if (hits.length > 0) this.pendingNudge = STUCK_NUDGE;
  }

  private createMemory(maxMessages: number): Memory {
    return new Memory(maxMessages, {
      appended: (index, message) =>
        this.env.emit({
          type: 'memory.appended',
          agent: this.name,
          index,
          message: toEventMessage(message, this.env.keepImage),
        }),
      truncated: (dropped, window) =>
        this.env.emit({ type: 'memory.truncated', agent: this.name, dropped, window }),
    });
  }
}
