/**
 * RunManager: starts, stops and lists runs. Each run gets its own agent instance, model
 * client and tool registry (built by the injected factory), its own AbortController, and
 * an event stamper, so several runs can go at once. Every event goes to the listeners
 * (run history, host transports, CLI) in emission order; `run.finished` is always last.
 */
import { randomUUID } from 'node:crypto';
import type { AgentName, FlowName } from '@shared/domain/agent';
import { createEventStamper, type RunEvent, type RunEventPayload } from '@shared/events';
import type { RunStartInput, RunSummary } from '@shared/ipc';
import { applyToSummary } from '@shared/run-summary';
import type { RunResult } from '../agent/base-agent';
import { CancelledError } from '../util/abort';

/** What a factory hands back: something to run, and what to release afterwards. */
export interface PreparedRun {
  agentName: string;
  model: string;
  maxSteps: number;
  execute(task: string, signal: AbortSignal): Promise<RunResult>;
  dispose?(): Promise<void>;
}

export interface RunContext {
  runId: string;
  sessionId: string;
  emit: (event: RunEventPayload) => void;
}

export type RunFactory = (input: ResolvedRunInput, context: RunContext) => Promise<PreparedRun>;

export interface ResolvedRunInput {
  task: string;
  agent: AgentName;
  flow?: FlowName;
  maxSteps?: number;
}

export type RunEventListener = (event: RunEvent) => void;

export interface RunHandle {
  runId: string;
  done: Promise<RunResult>;
}

interface LiveRun {
  controller: AbortController;
  done: Promise<RunResult>;
}

export class RunManager {
  private readonly listeners = new Set<RunEventListener>();
  private readonly live = new Map<string, LiveRun>();
  private readonly summaries = new Map<string, RunSummary>();

  constructor(
    private readonly factory: RunFactory,
    private readonly options: { defaultAgent?: AgentName; sessionId?: string } = {},
  ) {}

  onEvent(listener: RunEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(input: RunStartInput): RunHandle {
    const runId = newRunId();
    const stamper = createEventStamper(runId);
    const controller = new AbortController();
    const publish = (payload: RunEventPayload) => {
      const event = stamper.stamp(payload);
      const summary = applyToSummary(this.summaries.get(runId), event);
      if (summary) this.summaries.set(runId, summary);
      for (const listener of this.listeners) {
        try {
          listener(event);
        } catch (error) {
          // A broken listener must not break the run or starve the others.
          console.error(`[workbench] run event listener failed: ${(error as Error).message}`);
        }
      }
    };
    const resolved: ResolvedRunInput = {
      task: input.task,
      agent: input.agent ?? this.options.defaultAgent ?? 'manus',
      ...(input.flow ? { flow: input.flow } : {}),
      ...(input.maxSteps !== undefined ? { maxSteps: input.maxSteps } : {}),
    };
    const sessionId = this.options.sessionId ?? 'default';
    const done = this.execute(resolved, { runId, sessionId, emit: publish }, controller.signal);
    this.live.set(runId, { controller, done });
    void done.finally(() => this.live.delete(runId));
    return { runId, done };
  }

  /** Asks a run to stop; resolves true if it was running. */
  stop(runId: string): boolean {
    const run = this.live.get(runId);
    if (!run) return false;
    run.controller.abort(new CancelledError('Stopped by the user'));
    return true;
  }

  isRunning(runId: string): boolean {
    return this.live.has(runId);
  }

  list(): RunSummary[] {
    return [...this.summaries.values()].sort((a, b) => b.startedAt - a.startedAt);
  }

  get(runId: string): RunSummary | undefined {
    return this.summaries.get(runId);
  }

  /** Stops every run and waits for them to end (app quit, CLI interrupt). */
  async dispose(): Promise<void> {
    const runs = [...this.live.values()];
    for (const run of runs)
      run.controller.abort(new CancelledError('The application is shutting down'));
    await Promise.allSettled(runs.map((r) => r.done));
  }

  private async execute(
    input: ResolvedRunInput,
    context: RunContext,
    signal: AbortSignal,
  ): Promise<RunResult> {
    let prepared: PreparedRun | undefined;
    let result: RunResult;
    try {
      prepared = await this.factory(input, context);
      context.emit({
        type: 'run.started',
        agent: prepared.agentName,
        task: input.task,
        maxSteps: prepared.maxSteps,
        model: prepared.model,
        ...(input.flow ? { flow: input.flow } : {}),
        sessionId: context.sessionId,
      });
      result = await prepared.execute(input.task, signal);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!prepared) {
        // The run could not even be set up (bad config, missing model...): it still gets
        // a started and a finished event so history and UI show what happened.
        context.emit({
          type: 'run.started',
          agent: input.agent,
          task: input.task,
          maxSteps: input.maxSteps ?? 0,
          model: 'unknown',
          ...(input.flow ? { flow: input.flow } : {}),
          sessionId: context.sessionId,
        });
      }
      result = {
        outcome: 'error',
        state: 'ERROR',
        steps: 0,
        usage: { prompt: 0, completion: 0 },
        error: message,
        stepResults: [],
      };
    } finally {
      await prepared?.dispose?.().catch((error: unknown) => {
        console.error(
          `[workbench] cleanup after run ${context.runId} failed: ${(error as Error).message}`,
        );
      });
    }
    context.emit({
      type: 'run.finished',
      outcome: result.outcome,
      state: result.state,
      steps: result.steps,
      usage: result.usage,
      ...(result.terminateStatus !== undefined ? { terminateStatus: result.terminateStatus } : {}),
      ...(result.error !== undefined ? { error: result.error } : {}),
    });
    return result;
  }
}

/** Sortable by time, unique, safe as a file name. */
function newRunId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..+$/, '');
  return `${stamp}-${randomUUID().slice(0, 8)}`;
}
