/**
 * A sandbox session that an outside client drives (the sandbox MCP server, docs/mcp.md):
 * a run in the history like an agent's, whose steps are the client's tool calls instead
 * of model replies. Each call is one step: `step.started`, the call as an assistant
 * message with one tool call, `tool.started`/`tool.output`/`tool.finished` from the same
 * tool code the built-in agents use, the result as a tool message, `step.finished`, and a
 * checkpoint at the step boundary. So the same sandbox policy, limits, `max_containers`
 * cap, saturation guard and workspace choices apply, the run shows in the timeline,
 * duplicates are marked by the run manager, and a step's files can be forked.
 *
 * Calls run one at a time in arrival order (steps and checkpoints are sequential); the
 * run ends when the client goes away (`close`) or the run is stopped. Without a chosen
 * workspace the run has a session (container, workspace folder) of its own.
 */
import { randomUUID } from 'node:crypto';
import type { WorkspaceChoice } from '@shared/domain/runs';
import type { RunResult } from '@shared/domain/agent';
import type { RunEventPayload } from '@shared/events';
import type { RuntimeServices } from '../agents/runtime-services';
import type { RunManager, RunFactory, RunContext } from '../runs/run-manager';
import type { RunLineage } from '../runs/run-lineage';
import { openRunSession, type RunSession } from '../launch/run-session';
import { openForkSession } from '../launch/lineage-launch';
import { checkpointHook } from '../launch/checkpoint-hook';
import { sessionSettingsRecord } from '../launch/run-settings';
import { sandboxToolset, type SandboxToolName } from '../tools/sandbox/sandbox-toolset';
import { ToolRegistry } from '../tools/tool-registry';
import type { Tool, ToolResult } from '../tools/tool';
import { executeToolCall } from '../loop/tool-execution';
import { CancelledError } from '../util/abort';

/** The agent name the run's events carry. */
export const SANDBOX_AGENT = 'sandbox';
/** The model a sandbox run names: no model takes part. */
export const SANDBOX_MODEL = 'none (MCP client)';
export const SANDBOX_TOOL_NAMES: SandboxToolName[] = [
  'bash',
  'python_execute',
  'str_replace_editor',
  'read_file',
  'write_file',
];
/** A session's call limit: the run's `maxSteps` (a step per call). */
export const MAX_SANDBOX_CALLS = 10_000;

export interface SandboxRunHost {
  runs: RunManager;
  services: RuntimeServices;
}

export interface SandboxRunOptions {
  /** the run's task line: who drives it (`MCP sandbox session: <client>`) */
  title: string;
  /** a host folder mounted (`mount`) or copied (`copy`) as the workspace */
  workspace?: WorkspaceChoice;
  /** start from the files of a step of another run (its checkpoint), in a fresh container */
  fork?: { runId: string; step: number };
}

export interface SandboxToolDescription {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** What a call answers: the tool's own output (not the model's observation framing). */
export interface SandboxCallResult {
  ok: boolean;
  output: string;
  error?: string;
  exitCode?: number;
  step: number;
}

interface Live {
  emit: (event: RunEventPayload) => void;
  registry: ToolRegistry;
  atStepBoundary: ((agent: string, step: number) => Promise<void>) | undefined;
  signal: AbortSignal;
  /** set when the calls are recorded into another part's run (the gateway's), not a run of their own */
  host?: HostRun;
}

/**
 * A run another part of the workbench owns (the model gateway's run of an agent) that a
 * session's calls are recorded into: each call is a tool call of the run's current step
 * (the agent's model call whose reply asked for it), under the run's agent; the run's
 * owner says when a step ends (`checkpoint`), and ends the session with `close`.
 */
export interface HostRun {
  context: RunContext;
  /** the run's agent (`external: NAME`) */
  agent: string;
  /** the step the agent is at now */
  step(): number;
  /** aborted when the run ends or is stopped */
  signal: AbortSignal;
}

export class SandboxRun {
  private steps = 0;
  private memoryIndex = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private isClosed = false;

  private constructor(
    readonly runId: string,
    readonly done: Promise<RunResult>,
    private readonly live: Live,
    private readonly endRun: () => void,
  ) {}

  /** Starts the run and opens its session; rejects with the reason when it cannot start. */
  static async start(host: SandboxRunHost, options: SandboxRunOptions): Promise<SandboxRun> {
    let ready!: (started: { live: Live; finish: () => void }) => void;
    let failed!: (error: unknown) => void;
    const isReady = new Promise<{ live: Live; finish: () => void }>((resolve, reject) => {
      ready = resolve;
      failed = reject;
    });
    let stepsOf: () => number = () => 0;
    const factory: RunFactory = async (input, context) => {
      const config = host.services.loadConfig();
      let opened: RunSession;
      let toolset: ReturnType<typeof sandboxToolset> | undefined;
      try {
        opened = input.lineage
          ? await openForkSession(host.services, config, input.lineage, context)
          : input.workspace
            ? await openRunSession(host.services, input, context, config.sandbox)
            : ownSession(host.services, context.runId);
        toolset = sandboxToolset(
          { services: host.services, session: opened.session, config, env: context },
          SANDBOX_TOOL_NAMES,
          { need: 'optional' },
        );
      } catch (error) {
        failed(error);
        throw error;
      }
      const atStepBoundary = checkpointHook(host.services, config, context, opened);
      const tools = toolset.tools;
      let finish!: () => void;
      const ended = new Promise<void>((resolve) => (finish = resolve));
      return {
        agentName: SANDBOX_AGENT,
        model: SANDBOX_MODEL,
        maxSteps: MAX_SANDBOX_CALLS,
        sessionId: opened.session.id,
        ...(opened.workspace ? { workspace: opened.workspace } : {}),
        settings: sessionSettingsRecord(config),
        execute: async (_task, signal) => {
          ready({
            live: { emit: context.emit, registry: new ToolRegistry(tools), atStepBoundary, signal },
            finish,
          });
          const stopped = new Promise<'stopped'>((resolve) => {
            if (signal.aborted) resolve('stopped');
            signal.addEventListener('abort', () => resolve('stopped'), { once: true });
          });
          const how = await Promise.race([ended.then(() => 'closed' as const), stopped]);
          const steps = stepsOf();
          return {
            outcome: how === 'stopped' ? 'cancelled' : 'finished',
            state: 'FINISHED',
            steps,
            usage: { prompt: 0, completion: 0 },
            stepResults: [],
          };
        },
        dispose: async () => {
          try {
            await Promise.all(tools.map((tool) => tool.dispose?.()));
            await toolset?.dispose();
          } finally {
            await opened.release();
          }
        },
      };
    };
    const lineage = options.fork ? forkLineage(host, options.fork) : undefined;
    const handle = host.runs.start(
      {
        task: options.title,
        ...(options.workspace ? { workspace: options.workspace } : {}),
      },
      { factory, ...(lineage ? { lineage } : {}) },
    );
    // The factory fails before the run executes: the run is recorded with its error.
    void handle.done.then((result) => failed(new Error(result.error ?? 'the run ended')));
    const { live, finish } = await isReady;
    const run = new SandboxRun(handle.runId, handle.done, live, finish);
    stepsOf = () => run.steps;
    return run;
  }

  /**
   * A session whose calls are recorded into `run` (HostRun), in a session (container,
   * workspace) of its own named after that run, with the run's checkpoints taken when its
   * owner calls `checkpoint(step)`. The owner ends it with `close` when its run ends.
   */
  static attach(host: SandboxRunHost, run: HostRun): SandboxRun {
    const config = host.services.loadConfig();
    const opened = ownSession(host.services, run.context.runId);
    const emit = run.context.emit;
    const toolset = sandboxToolset(
      { services: host.services, session: opened.session, config, env: { emit } },
      SANDBOX_TOOL_NAMES,
      { need: 'optional' },
    );
    const atStepBoundary = checkpointHook(host.services, config, run.context, opened);
    let settle!: (result: RunResult) => void;
    const done = new Promise<RunResult>((resolve) => (settle = resolve));
    const sandbox = new SandboxRun(
      run.context.runId,
      done,
      {
        emit,
        registry: new ToolRegistry(toolset.tools),
        atStepBoundary,
        signal: run.signal,
        host: run,
      },
      () => {
        const steps = sandbox.steps;
        void (async () => {
          try {
            await Promise.all(toolset.tools.map((tool) => tool.dispose?.()));
            await toolset.dispose();
          } finally {
            await opened.release();
          }
        })()
          .catch((error: unknown) => {
            console.error(
              `[workbench] closing a sandbox session failed: ${(error as Error).message}`,
            );
          })
          .finally(() =>
            settle({
              outcome: 'finished',
              state: 'FINISHED',
              steps,
              usage: { prompt: 0, completion: 0 },
              stepResults: [],
            }),
          );
      },
    );
    return sandbox;
  }

  /**
   * The host run's step ended (HostRun): a checkpoint of the session's files at that
   * boundary, taken after the calls before it and before any call after it.
   */
  checkpoint(step: number): Promise<void> {
    const hook = this.live.atStepBoundary;
    const agent = this.live.host?.agent;
    if (!hook || !agent || this.isClosed || this.steps === 0) return Promise.resolve();
    const next = this.queue.then(() =>
      hook(agent, step).catch((error: unknown) => {
        console.error(`[workbench] checkpoint of step ${step} failed: ${(error as Error).message}`);
      }),
    );
    this.queue = next;
    return next;
  }

  get tools(): SandboxToolDescription[] {
    return this.live.registry.specs().map((spec) => ({
      name: spec.function.name,
      description: spec.function.description ?? '',
      inputSchema: (spec.function.parameters ?? { type: 'object' }) as Record<string, unknown>,
    }));
  }

  /** True once the client closed it or the run was stopped. */
  get isOver(): boolean {
    return this.isClosed || this.live.signal.aborted;
  }

  /** Runs one call as the run's next step (after the calls before it). */
  call(name: string, args: unknown, signal?: AbortSignal): Promise<SandboxCallResult> {
    const next = this.queue.then(() => this.runStep(name, args, signal));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Ends the run (the client went away); waits for the run's last events. */
  async close(): Promise<RunResult> {
    if (!this.isClosed) {
      this.isClosed = true;
      await this.queue;
      this.endRun();
    }
    return this.done;
  }

  private async runStep(
    name: string,
    args: unknown,
    callSignal: AbortSignal | undefined,
  ): Promise<SandboxCallResult> {
    if (this.isClosed) throw new Error('This sandbox session is closed');
    if (this.live.signal.aborted) {
      throw new CancelledError(`The sandbox session's run ${this.runId} was stopped`);
    }
    if (this.steps >= MAX_SANDBOX_CALLS) {
      throw new Error(
        `This sandbox session made its ${MAX_SANDBOX_CALLS} calls; open a new session to go on`,
      );
    }
    const { emit, registry, host } = this.live;
    this.steps++;
    // in a host run the call is a tool call of the agent's current step; else a step of its own
    const step = host ? host.step() : this.steps;
    const t0 = performance.now();
    const agent = host ? host.agent : SANDBOX_AGENT;
    const call = {
      id: `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
      type: 'function' as const,
      function: { name, arguments: JSON.stringify(args ?? {}) },
    };
    if (!host) {
      emit({ type: 'step.started', agent, step, maxSteps: MAX_SANDBOX_CALLS });
      emit({
        type: 'memory.appended',
        agent,
        index: this.memoryIndex++,
        message: { role: 'assistant', content: null, tool_calls: [call] },
      });
    }
    let result: ToolResult | undefined;
    const recording = new ToolRegistry(
      registry.names.map((toolName) => recordingTool(registry.get(toolName)!, (r) => (result = r))),
    );
    const signal = callSignal ? AbortSignal.any([this.live.signal, callSignal]) : this.live.signal;
    try {
      const outcome = await executeToolCall(call, {
        tools: recording,
        agent,
        runId: this.runId,
        step,
        signal,
        emit,
        maxObserve: undefined,
      });
      if (!host) {
        emit({
          type: 'memory.appended',
          agent,
          index: this.memoryIndex++,
          message: { role: 'tool', content: outcome.observation, tool_call_id: call.id, name },
        });
      }
      const answer: SandboxCallResult = result
        ? {
            ok: outcome.ok,
            output: result.output,
            ...(result.error !== undefined ? { error: result.error } : {}),
            ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
            step,
          }
        : // never ran: unknown tool or bad arguments (the observation says which)
          { ok: false, output: '', error: outcome.observation.replace(/^Error: /, ''), step };
      return answer;
    } finally {
      if (!host) {
        emit({
          type: 'step.finished',
          agent,
          step,
          durationMs: Math.round(performance.now() - t0),
        });
        await this.live.atStepBoundary?.(agent, step).catch((error: unknown) => {
          console.error(
            `[workbench] checkpoint of step ${step} failed: ${(error as Error).message}`,
          );
        });
      }
    }
  }
}

/**
 * A session of the run's own (`sandbox-<runId>`): an outside client gets its own
 * container and workspace, not the app's shared one the UI's runs use. Its container is
 * removed when the run ends; its workspace stays (checkpoints, the user's look), and goes
 * with the run when it is deleted (runtime.ts).
 */
function ownSession(services: RuntimeServices, runId: string): RunSession {
  const session = services.sessions.open(`${OWN_SESSION_PREFIX}${runId}`);
  return { session, release: () => services.sessions.close(session.id) };
}

export const OWN_SESSION_PREFIX = 'sandbox-';

/** The tool, handing its result to `keep` as well (the client gets it unframed). */
function recordingTool(tool: Tool, keep: (result: ToolResult) => void): Tool {
  return {
    name: tool.name,
    description: tool.description,
    schema: tool.schema,
    async execute(args, context) {
      const result = await tool.execute(args, context);
      keep(result);
      return result;
    },
  };
}

/** Where a forked session starts: a step of a run that has a checkpoint of its files. */
function forkLineage(host: SandboxRunHost, from: { runId: string; step: number }): RunLineage {
  const events = host.runs.history.read(from.runId)?.events;
  if (!events) throw new Error(`No run ${from.runId} in the history`);
  const steps = host.runs.checkpointsOf(from.runId).map((c) => c.step);
  if (!steps.includes(from.step)) {
    throw new Error(
      steps.length > 0
        ? `Run ${from.runId} has no checkpoint at step ${from.step}; its checkpoints: steps ${steps.join(', ')}`
        : `Run ${from.runId} has no checkpoints (its files were not kept): it cannot be forked with its files`,
    );
  }
  const boundary = events.find((e) => e.type === 'step.finished' && e.step === from.step);
  return { kind: 'fork', from, seq: boundary?.seq ?? events.at(-1)?.seq ?? 0 };
}
