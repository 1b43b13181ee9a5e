/**
 * RunManager: starts, stops and lists runs. Each run gets its own agent instance, model
 * client and tool registry (built by the injected factory), its own AbortController, and
 * an event stamper, so several runs can go at once. Every event is first written to the
 * run history, then given to the listeners (host transports, CLI) in emission order, so
 * whatever a UI has shown is already on disk; `run.finished` is always last.
 */
import { RunStartRefused, type SessionStartGate } from './run-start-refused';
import { randomUUID } from 'node:crypto';
import { createEventStamper, type RunEvent, type RunEventPayload } from '@shared/events';
import type { CheckpointView, RunSnapshot, RunStartInput, RunSummary } from '@shared/ipc';
import { applyToSummary } from '@shared/run-summary';
import { DuplicateLedger } from '@shared/duplicate-keys';
import type { RunResult } from '@shared/domain/agent';
import type { DebugActor } from '@shared/domain/debugger';
import { CancelledError } from '../util/abort';
import { RunDebugger } from '../debug/run-debugger';
import { MemoryRunHistory, type RunHistory } from './run-history';
import { lineageInput, type LineageRequest } from './run-lineage';

// Callers import the run shapes from here, as before they had a file of their own.
export type * from './run-types';
import type {
  LiveRun,
  PreparedRun,
  RunFactory,
  RunContext,
  ResolvedRunInput,
  RunStartOptions,
  RunEventListener,
  RunHandle,
  RunManagerOptions,
} from './run-types';
import { RunSetupError } from './run-setup-error';

const REDACTED = '[redacted]';
/** Shorter values would redact ordinary words; real keys are far longer. */
const MIN_SECRET_LENGTH = 8;

export class RunManager {
  private readonly listeners = new Set<RunEventListener>();
  private readonly live = new Map<string, LiveRun>();
  private readonly startGates: SessionStartGate[] = [];
  readonly history: RunHistory;

  constructor(
    private readonly factory: RunFactory,
    private readonly options: RunManagerOptions = {},
  ) {
    this.history = options.history ?? new MemoryRunHistory();
  }

  get defaultSessionId(): string {
    return this.options.sessionId ?? 'default';
  }

  onEvent(listener: RunEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** `gate` is asked before every run starts; a reason refuses it (RunStartRefused). */
  refuseStartsWhen(gate: SessionStartGate): void {
    this.startGates.push(gate);
  }

  start(input: RunStartInput, options: RunStartOptions = {}): RunHandle {
    for (const gate of this.startGates) {
      const refused = gate(input.sessionId ?? this.defaultSessionId);
      if (refused !== null) throw new RunStartRefused(refused);
    }
    const runId = newRunId();
    const stamper = createEventStamper(runId);
    const controller = new AbortController();
    const secrets = (this.options.secrets?.() ?? []).filter((v) => v.length >= MIN_SECRET_LENGTH);
    const debug = new RunDebugger((payload) => emit(payload));
    const run: LiveRun = { controller, summary: undefined, lastSeq: 0, debug };
    const duplicates = new DuplicateLedger();
    const publish = (payload: RunEventPayload) => {
      const marked = markDuplicate(payload, duplicates);
      debug.observe(marked);
      let event = stamper.stamp(marked);
      let line = JSON.stringify(event);
      if (secrets.some((secret) => line.includes(secret))) {
        for (const secret of secrets) line = line.split(secret).join(REDACTED);
        event = JSON.parse(line) as RunEvent;
      }
      this.history.append(event, line);
      const summary = applyToSummary(run.summary, event);
      if (summary) run.summary = { ...summary, lastSeq: event.seq };
      run.lastSeq = event.seq;
      for (const listener of this.listeners) {
        try {
          listener(event, line);
        } catch (error) {
          // A broken listener must not break the run or starve the others.
          console.error(`[workbench] run event listener failed: ${(error as Error).message}`);
        }
      }
    };
    // run.started is the run's first event (seq 1: an export is imported by it, and every
    // reader starts there), yet the run's setup can speak first (an MCP server connected
    // to fetch a prompt logs as it starts): what comes before it is held and follows it.
    let isStarted = false;
    const early: RunEventPayload[] = [];
    const emit = (payload: RunEventPayload) => {
      if (!isStarted && payload.type !== 'run.started') {
        early.push(payload);
        return;
      }
      publish(payload);
      if (isStarted) return;
      isStarted = true;
      for (const held of early.splice(0)) publish(held);
    };
    const resolved: ResolvedRunInput = {
      task: input.task,
      agent: input.agent ?? this.options.defaultAgent ?? 'manus',
      ...(input.flow ? { flow: input.flow } : {}),
      ...(input.maxSteps !== undefined ? { maxSteps: input.maxSteps } : {}),
      ...(input.workspace ? { workspace: input.workspace } : {}),
      ...(input.breakpoints?.length ? { breakpoints: input.breakpoints } : {}),
      ...(input.approveTools?.length ? { approveTools: input.approveTools } : {}),
      ...(options.actor ? { debugActor: options.actor } : {}),
      ...(options.ignoreSavedBreakpoints ? { ignoreSavedBreakpoints: true } : {}),
      ...(options.lineage ? { lineage: options.lineage } : {}),
      ...(input.rerunOf ? { rerunOf: input.rerunOf } : {}),
      ...(input.rerunOf ? { rerunSettings: options.recorded ? 'recorded' : 'current' } : {}),
      ...(options.recorded ? { recorded: options.recorded } : {}),
      ...(input.prompt ? { prompt: input.prompt } : {}),
      ...(input.agentRef !== undefined ? { agentRef: input.agentRef } : {}),
      // a batch column's profile, else the one the user chose for this run
      ...((options.profile ?? input.profile) !== undefined
        ? { profile: options.profile ?? input.profile }
        : {}),
      ...(options.check !== undefined ? { check: options.check } : {}),
      ...(options.scoring ? { scoring: options.scoring } : {}),
      ...(options.batch ? { batch: options.batch } : {}),
      ...(options.copyIntoSession ? { copyIntoSession: true } : {}),
    };
    const sessionId = input.sessionId ?? this.defaultSessionId;
    // Listed from the first moment; replaced by the real summary at run.started.
    run.summary = {
      runId,
      agent: options.agentLabel ?? resolved.agent,
      task: input.task,
      model: '',
      ...(input.flow ? { flow: input.flow } : {}),
      sessionId,
      startedAt: Date.now(),
      state: 'IDLE',
      steps: 0,
      maxSteps: input.maxSteps ?? 0,
      usage: { prompt: 0, completion: 0 },
      lastSeq: 0,
    };
    this.live.set(runId, run);
    this.history.reserve?.(runId);
    const readRun = (id: string) => this.history.read(id)?.events;
    const done = this.execute(
      resolved,
      {
        runId,
        sessionId,
        emit,
        debug,
        readRun,
        ...this.imageAccess(runId),
        ...(this.options.checkpoints ? { checkpoints: this.options.checkpoints } : {}),
      },
      controller.signal,
      options.factory ?? this.factory,
    );
    run.done = done;
    void done.finally(() => this.live.delete(runId));
    return { runId, done };
  }

  /** The run's way to keep its images, and to read another run's (a fork's parent). */
  private imageAccess(runId: string): Pick<RunContext, 'keepImage' | 'readImage'> {
    const history = this.history;
    if (!history.keepImage || !history.readImage) return {};
    return {
      keepImage: (image) => history.keepImage!(runId, image),
      readImage: (fromRunId, ref) => {
        const stored = history.readImage!(fromRunId, ref);
        return stored && { mimeType: stored.mimeType, data: stored.bytes.toString('base64') };
      },
    };
  }

  /**
   * A new run from a step of another (a fork: its context, its sandbox files, an added
   * message, another model), from where an interrupted run stopped (a resume), or after
   * a finished run's last step with a follow-up message (a continuation). Rejects
   * with a LineageError, before anything is recorded, when the run or the step cannot be
   * started from as asked (run-lineage.ts, launch/lineage-admission.ts).
   */
  async startFrom(
    request: LineageRequest,
    options: { actor?: DebugActor } = {},
  ): Promise<RunHandle> {
    const summary = this.get(request.runId);
    const { input, lineage } = lineageInput(this.history, request, summary);
    const events = this.history.read(request.runId)?.events ?? [];
    if (summary) await this.options.admitLineage?.({ input, lineage, parent: { summary, events } });
    return this.start(input, { ...options, lineage });
  }

  /** The run's checkpoints, oldest first (steps that can be forked with their files). */
  checkpointsOf(runId: string): CheckpointView[] {
    return (this.options.checkpoints?.list(runId) ?? []).map((m) => ({
      agent: m.agent,
      step: m.step,
      bytes: m.bytes,
      files: m.manifest.filter((e) => e.kind !== 'd').length,
      processes: m.processes,
    }));
  }

  /** Asks a run to stop; resolves true if it was running. */
  stop(runId: string): boolean {
    const run = this.live.get(runId);
    if (!run) return false;
    run.controller.abort(new CancelledError('Stopped by the user'));
    return true;
  }

  /** The debugger of a live run (pause, step, breakpoints, edits). */
  debugger(runId: string): RunDebugger | undefined {
    return this.live.get(runId)?.debug;
  }

  isRunning(runId: string): boolean {
    return this.live.has(runId);
  }

  /** Every run in the history, live ones with their current summary; newest first. */
  list(): RunSummary[] {
    const byId = new Map(this.history.list().map((s) => [s.runId, s]));
    for (const [runId, run] of this.live) if (run.summary) byId.set(runId, run.summary);
    return [...byId.values()].sort((a, b) => b.startedAt - a.startedAt);
  }

  get(runId: string): RunSummary | undefined {
    return this.live.get(runId)?.summary ?? this.history.summary(runId);
  }

  /** Names a run in the history (a blank title removes the name); undefined: no such run. */
  rename(runId: string, title: string): RunSummary | undefined {
    const renamed = this.history.rename(runId, title);
    const live = this.live.get(runId);
    if (renamed && live?.summary) {
      const { title: _old, ...rest } = live.summary;
      live.summary = renamed.title === undefined ? rest : { ...rest, title: renamed.title };
    }
    return renamed && this.get(runId);
  }

  /**
   * Removes a run from the history with its files, snapshots and what else it owned; a
   * live run is stopped first and removed once it has ended. Answers whether there was
   * such a run, and its summary.
   */
  async remove(runId: string): Promise<{ removed: boolean; summary?: RunSummary }> {
    const summary = this.get(runId);
    const live = this.live.get(runId);
    if (live) {
      live.controller.abort(new CancelledError('The run was deleted'));
      await live.done?.catch(() => undefined);
    }
    const removed = this.history.remove(runId) || summary !== undefined;
    // what else it owned: its sandbox snapshots, a fork's workspace and container
    this.options.checkpoints?.remove(runId);
    await this.options.onDeleted?.(runId);
    return summary ? { removed, summary } : { removed };
  }

  /**
   * A run's summary and events for a UI that opens it or reloads while it goes on:
   * events up to `summary.lastSeq`; pushes continue with the next seq.
   */
  snapshot(runId: string, afterSeq = 0, limit?: number): RunSnapshot | undefined {
    const summary = this.get(runId);
    if (!summary) return undefined;
    const page = this.history.readPage(runId, {
      afterSeq,
      limit: limit ?? Number.MAX_SAFE_INTEGER,
    });
    const events = page?.events ?? [];
    const last = events.at(-1);
    // A summary without lastSeq (an old index) gets it from the log when the page reaches the end.
    const lastSeq = summary.lastSeq ?? (page?.hasMore ? undefined : last?.seq);
    return {
      summary: lastSeq !== undefined ? { ...summary, lastSeq } : summary,
      events,
      isLive: this.live.has(runId),
      // A history the disk did not take in full says so where damage is reported.
      warnings: [
        ...[this.options.checkpoints?.evictedNote(runId) ?? ''].filter(Boolean),
        ...(summary.historyIncomplete
          ? [`This run's history is incomplete: ${summary.historyIncomplete}`]
          : []),
        ...(page?.warnings ?? []),
      ],
      hasMore: page?.hasMore ?? false,
    };
  }

  /** Stops every run and waits for them to end (app quit, CLI interrupt). */
  async dispose(): Promise<void> {
    const runs = [...this.live.values()];
    for (const run of runs)
      run.controller.abort(new CancelledError('The application is shutting down'));
    await Promise.allSettled(runs.map((r) => r.done));
    this.history.close();
  }

  private async execute(
    input: ResolvedRunInput,
    context: RunContext,
    signal: AbortSignal,
    factory: RunFactory,
  ): Promise<RunResult> {
    let prepared: PreparedRun | undefined;
    let result: RunResult;
    try {
      prepared = await factory(input, context);
      const task = prepared.task ?? input.task;
      context.emit({
        type: 'run.started',
        agent: prepared.agentName,
        task,
        maxSteps: prepared.maxSteps,
        model: prepared.model,
        ...(input.flow ? { flow: input.flow } : {}),
        sessionId: prepared.sessionId ?? context.sessionId,
        ...(prepared.workspace ? { workspace: prepared.workspace } : {}),
        ...(prepared.settings ? { settings: prepared.settings } : {}),
        ...(input.lineage?.kind === 'fork' ? { forkOf: input.lineage.from } : {}),
        ...(input.lineage?.kind === 'resume' ? { resumeOf: input.lineage.from } : {}),
        ...(input.lineage?.kind === 'continue' ? { continueOf: input.lineage.from } : {}),
        ...(input.rerunOf ? { rerunOf: input.rerunOf } : {}),
        ...(input.rerunSettings ? { rerunSettings: input.rerunSettings } : {}),
        ...(input.batch ? { batch: input.batch } : {}),
        ...(input.prompt ? { prompt: input.prompt } : {}),
        ...(prepared.agentDefinition ? { agentDefinition: prepared.agentDefinition } : {}),
      });
      // The run's own breakpoints after the factory's: a cost budget needs the run's prices.
      const actor = input.debugActor ?? 'ui';
      context.debug?.addBreakpoints(input.breakpoints ?? [], actor);
      context.debug?.addApprovals(input.approveTools ?? [], actor);
      context.debug?.announce();
      result = await prepared.execute(task, signal);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!prepared) {
        // The run could not even be set up (bad config, missing model...): it still gets
        // a started and a finished event so history and UI show what happened.
        context.emit({
          type: 'run.started',
          agent: input.agent,
          task: input.task,
          maxSteps: error instanceof RunSetupError ? error.known.maxSteps : (input.maxSteps ?? 0),
          model: error instanceof RunSetupError ? error.known.model : 'unknown',
          ...(input.flow ? { flow: input.flow } : {}),
          sessionId: context.sessionId,
          // a re-run that could not start still lands beside the run it repeats
          ...(input.rerunOf ? { rerunOf: input.rerunOf } : {}),
          ...(input.rerunSettings ? { rerunSettings: input.rerunSettings } : {}),
          ...(input.batch ? { batch: input.batch } : {}),
          ...(input.prompt ? { prompt: input.prompt } : {}),
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

/** An assistant response that repeats an earlier one of the same agent says so (the health line counts it). */
function markDuplicate(payload: RunEventPayload, ledger: DuplicateLedger): RunEventPayload {
  if (payload.type !== 'memory.appended' || payload.message.role !== 'assistant') return payload;
  const duplicate = ledger.classify(payload.agent, payload.message);
  return duplicate ? { ...payload, duplicate } : payload;
}

/** Sortable by time, unique, safe as a file name. */
function newRunId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..+$/, '');
  return `${stamp}-${randomUUID().slice(0, 8)}`;
}
