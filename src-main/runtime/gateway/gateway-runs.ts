/**
 * Which run a model call belongs to (docs/gateway.md, "Grouping calls into runs").
 *
 * - A call with `X-Workbench-Run: NAME` belongs to the open run of that name, or starts it.
 * - Without it, a call whose messages extend an open run's conversation (its last request
 *   and the reply the agent got) continues that run; any other starts a new run, named
 *   after the client library that sent it (`openai-python`, `openai-js`, …).
 * - A run with no call for `idleMs` ends (outcome `finished`); a later call of the same
 *   name starts a new run.
 *
 * Each run is an ordinary run of the run manager (history, live view, compare, export),
 * listed with the agent `external: NAME`. Other parts of the workbench that serve the
 * same agent (the sandbox MCP server) add their events to its run with `recordInto`.
 */
import type { RunEventPayload } from '@shared/events';
import type { Message } from '@shared/domain/message';
import type { RunManager } from '../runs/run-manager';
import type { RunContext } from '../runs/run-types';
import { SandboxRun, type SandboxRunHost } from '../sandbox-mcp/sandbox-run';
import type { PreparedRun } from '../runs/run-types';
import type { RunLineage } from '../runs/run-lineage';
import { ExternalRun } from './external-run';

export const RUN_HEADER = 'x-workbench-run';
/** an agent that made no call for this long has finished (`--idle`, [gateway] idle_seconds) */
export const DEFAULT_IDLE_MS = 5 * 60_000;
/** a run name: what a header may carry (it becomes the agent's name in the history) */
const NAME_PATTERN = /^[\w.:@/+-][\w .:@/+-]{0,63}$/;

export interface GatewayRunsOptions {
  runs: RunManager;
  idleMs?: number;
  /** the session the runs are listed in (default: the manager's) */
  sessionId?: string;
  /** breakpoints (text form) and approval tools every run starts with (`--break`, `--approve`) */
  breakpoints?: string[];
  approveTools?: string[];
  /** what the first run opened is (a replay repeats a run; a fork starts from one) */
  firstRun?: { rerunOf?: string; lineage?: RunLineage };
  /** the runtime whose sandbox the agents' sandbox MCP calls run in (`sandboxOf`) */
  sandboxHost?: SandboxRunHost;
}

export class GatewayRuns {
  private readonly open = new Set<ExternalRun>();
  private readonly contexts = new WeakMap<ExternalRun, RunContext>();
  /** the sandbox MCP session of a run, opened by its agent's first sandbox call */
  private readonly sandboxes = new Map<ExternalRun, SandboxRun>();
  private readonly idleMs: number;
  private readonly timer: NodeJS.Timeout;
  private hasOpened = false;

  constructor(private readonly options: GatewayRunsOptions) {
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.timer = setInterval(() => this.endIdle(), Math.max(50, Math.min(this.idleMs / 4, 5_000)));
    this.timer.unref();
  }

  /** The run this call belongs to, started when there is none (resolves once it may record). */
  async route(
    header: string | undefined,
    messages: readonly Message[],
    userAgent: string | undefined,
    model = '',
  ): Promise<ExternalRun> {
    this.endIdle();
    let run: ExternalRun | undefined;
    if (header !== undefined) {
      run = this.named(header);
    } else {
      // the longest conversation it extends (two agents may share a system prompt)
      run = [...this.open]
        .filter((r) => !r.isNamed && r.inFlight === 0 && r.continues(messages))
        .sort((a, b) => b.conversation.length - a.conversation.length)[0];
    }
    run ??= this.start(header ?? clientName(userAgent), header !== undefined, messages, model);
    run.inFlight += 1;
    run.lastActivity = Date.now();
    await run.ready();
    return run;
  }

  /** The call is over (answered or failed): the idle time counts from now. */
  release(run: ExternalRun): void {
    run.inFlight = Math.max(0, run.inFlight - 1);
    run.lastActivity = Date.now();
  }

  /** The open run of this name (`X-Workbench-Run`), if any. */
  named(name: string): ExternalRun | undefined {
    return [...this.open].find((r) => r.isNamed && r.name === name && !r.ended);
  }

  /**
   * Adds events to the open run of the agent named `name` (the same `X-Workbench-Run`
   * name): the sandbox MCP server's tool calls land in the gateway run of the agent that
   * made them. Answers the run's id, or undefined when no such run is open (the caller
   * records elsewhere). The events are ordinary run events of the agent `external: NAME`.
   */
  recordInto(name: string, events: readonly RunEventPayload[]): string | undefined {
    const run = this.named(name);
    if (!run?.runId) return undefined;
    for (const event of events) run.record(event);
    run.lastActivity = Date.now();
    return run.runId;
  }

  /**
   * The sandbox MCP session of the open run of the agent named `name` (the same
   * `X-Workbench-Run` name; docs/mcp.md): its calls are tool calls of the run's current
   * step, in a container and workspace of the run's own, with a checkpoint of the files at
   * each step boundary from its first call on. Undefined when no such run is open (the
   * caller records into a sandbox run of its own).
   */
  sandboxOf(name: string): SandboxRun | undefined {
    const host = this.options.sandboxHost;
    const run = this.named(name);
    const context = run ? this.contexts.get(run) : undefined;
    if (!host || !run || !context) return undefined;
    let sandbox = this.sandboxes.get(run);
    if (!sandbox) {
      const opened = SandboxRun.attach(host, {
        context,
        agent: run.agent,
        step: () => run.step,
        signal: run.signal,
      });
      run.onStepFinished = (step) => void opened.checkpoint(step);
      this.sandboxes.set(run, opened);
      sandbox = opened;
    }
    return sandbox;
  }

  /** Ends every open run (the gateway stops). */
  async closeAll(): Promise<void> {
    clearInterval(this.timer);
    const runs = [...this.open];
    for (const run of runs) run.end('finished');
    await Promise.all(runs.map((r) => r.done));
  }

  get openRuns(): readonly ExternalRun[] {
    return [...this.open];
  }

  private endIdle(): void {
    const now = Date.now();
    for (const run of this.open) {
      if (run.ended) this.open.delete(run);
      else if (run.inFlight === 0 && now - run.lastActivity >= this.idleMs) {
        run.end('finished');
        this.open.delete(run);
      }
    }
  }

  private start(
    name: string,
    isNamed: boolean,
    messages: readonly Message[],
    model: string,
  ): ExternalRun {
    const run = new ExternalRun(name, isNamed);
    const task =
      messages.find((m) => m.role === 'user')?.content?.trim() ||
      `(the first call of ${run.agent} had no user message)`;
    const first = this.hasOpened ? undefined : this.options.firstRun;
    this.hasOpened = true;
    const handle = this.options.runs.start(
      {
        task,
        ...(this.options.sessionId ? { sessionId: this.options.sessionId } : {}),
        ...(first?.rerunOf ? { rerunOf: first.rerunOf } : {}),
        ...(this.options.breakpoints?.length ? { breakpoints: this.options.breakpoints } : {}),
        ...(this.options.approveTools?.length ? { approveTools: this.options.approveTools } : {}),
      },
      {
        agentLabel: run.agent,
        ...(first?.lineage ? { lineage: first.lineage } : {}),
        factory: async (_input, context): Promise<PreparedRun> => {
          this.contexts.set(run, context);
          return {
            agentName: run.agent,
            // the model its first call asked for (run.started; each step records its own)
            model,
            maxSteps: 0,
            // its sandbox session ends with it (after the last step's checkpoint)
            dispose: async () => {
              const sandbox = this.sandboxes.get(run);
              this.sandboxes.delete(run);
              await sandbox?.close();
            },
            execute: (_task, signal) => {
              run.attach({
                runId: context.runId,
                emit: context.emit,
                debug: context.debug!,
                signal,
              });
              return run.done;
            },
          };
        },
      },
    );
    void handle.done.finally(() => {
      run.end('finished');
      this.open.delete(run);
    });
    this.open.add(run);
    return run;
  }
}

/** A run's name from the header: trimmed; refused (with why) when it cannot be one. */
export function runNameOf(header: string | string[] | undefined): string | undefined | Error {
  if (header === undefined) return undefined;
  const value = (Array.isArray(header) ? header[0] : header)?.trim() ?? '';
  if (!NAME_PATTERN.test(value)) {
    return new Error(
      `X-Workbench-Run must be a name of 1 to 64 letters, digits, spaces or . : @ / + - _ (got "${value.slice(0, 80)}")`,
    );
  }
  return value;
}

/** The agent's name when it gave none: its client library, from the User-Agent. */
export function clientName(userAgent: string | undefined): string {
  const ua = (userAgent ?? '').toLowerCase();
  if (ua.startsWith('agents/')) return 'openai-agents';
  if (ua.includes('openai/python')) return 'openai-python';
  if (ua.includes('openai/js')) return 'openai-js';
  if (ua.includes('ai-sdk') || ua.includes('ai/')) return 'ai-sdk';
  if (ua.includes('langchain')) return 'langchain';
  return 'agent';
}
