/**
 * The run's terminal (issue 32 item 4): a command the user types runs in the run's
 * session container, as the sandbox user, in the workspace, under what an agent's command
 * runs under (the per-command timeout, the output cap, the container's limits, the
 * workspace watchdog of `[sandbox] workspace_limit`, a sandbox full of processes restored
 * first), and is recorded as a `user.command` in the run's user-actions log. Nothing typed
 * ever runs on the host: without a sandbox (`use_sandbox = false`, no engine) the command
 * is refused; the session's container is started when the session has none (the run
 * finished, it was removed), the way the agent's first tool call would.
 *
 * The terminal and the agent never share the sandbox at once: a command is refused while
 * an agent of that session runs (not paused), and while a typed command runs the session
 * is held, so resuming, stepping or editing the paused run, continuing or resuming a run
 * of that session is refused (`agentStartRefusal`), and so is starting any run in that
 * session (`RunManager.start` asks `sessionRefusal`), until it returns. The hold is taken in
 * the same tick as the check, before anything is awaited, so no resume slips in between.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isSessionId } from '@shared/domain/ids';
import type { UserCommandRecord } from '@shared/domain/terminal';
import type { RuntimeServices } from '../agents/runtime-services';
import type { SandboxSettings } from '../config/schema';
import type { CommandResult } from '../sandbox/sandbox';
import type { RunManager } from '../runs/run-manager';
import { SandboxError, WorkspaceFullError } from '../sandbox/errors';
import type { Session } from '../session/session';
import { WorkspaceWatchdog } from '../tools/sandbox/workspace-watchdog';
import type { UserActionsLog } from './user-actions-log';

/** What one typed command may be; longer ones are refused (a terminal line, not a script). */
export const MAX_COMMAND_LENGTH = 10_000;

export type TerminalErrorCode = 'invalid_input' | 'not_found' | 'conflict' | 'unavailable';

export class TerminalError extends Error {
  constructor(
    readonly code: TerminalErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TerminalError';
  }
}

/** A typed command under way: it holds its session's sandbox. */
interface CommandInFlight {
  runId: string;
  command: string;
  startedAt: number;
  timeoutSeconds: number;
}

export class RunTerminal {
  /** sessionId -> the typed command running in its sandbox */
  private readonly inFlight = new Map<string, CommandInFlight>();

  constructor(
    private readonly runs: RunManager,
    private readonly services: RuntimeServices,
    private readonly log: UserActionsLog,
    private readonly workspacesDir: string,
  ) {
    // every way a run starts (a new run in the session, a continue, a fork, a rerun)
    runs.refuseStartsWhen((sessionId) => this.sessionRefusal(sessionId)?.message ?? null);
  }

  /** The commands typed into the run's terminal so far, oldest first. */
  commands(runId: string): UserCommandRecord[] {
    if (!this.runs.get(runId)) throw new TerminalError('not_found', `No run with id ${runId}`);
    return this.log.read(runId);
  }

  /** Why a command cannot run now, or null when it can (the run is paused or over). */
  refusal(runId: string): TerminalError | null {
    const summary = this.runs.get(runId);
    if (!summary) return new TerminalError('not_found', `No run with id ${runId}`);
    if (this.isAgentRunning(runId)) {
      return new TerminalError(
        'conflict',
        'The agent is running: the terminal is read-only until the run is paused or finished.',
      );
    }
    // Another run of the same session uses the same container: not while its agent runs.
    const other = this.runs
      .list()
      .find(
        (r) =>
          r.runId !== runId &&
          r.sessionId !== undefined &&
          r.sessionId === summary.sessionId &&
          this.isAgentRunning(r.runId),
      );
    if (other) {
      return new TerminalError(
        'conflict',
        `Run ${other.runId} is running in the same session's sandbox: pause or stop it first.`,
      );
    }
    return null;
  }

  /**
   * Why an agent may not run in the run's session now, or null: a command typed into the
   * terminal of a run of that session is still running. Asked before a paused run is
   * resumed, stepped or edited, and before a run is continued or resumed.
   */
  agentStartRefusal(runId: string): TerminalError | null {
    const sessionId = this.runs.get(runId)?.sessionId;
    return sessionId === undefined ? null : this.sessionRefusal(sessionId);
  }

  /** Why no agent may start in the session now (a typed command runs there), or null. */
  sessionRefusal(sessionId: string): TerminalError | null {
    const busy = this.inFlight.get(sessionId);
    if (!busy) return null;
    const seconds = Math.max(0, Math.round((Date.now() - busy.startedAt) / 1000));
    return new TerminalError(
      'conflict',
      `A command typed in the terminal is still running in this run's sandbox (${JSON.stringify(
        busy.command.length > 60 ? `${busy.command.slice(0, 60)}…` : busy.command,
      )}, for ${seconds}s): the agent may go on when it returns (at most [sandbox] timeout = ${busy.timeoutSeconds}s). Try again then.`,
    );
  }

  /**
   * Runs `command` with `bash -c` in the run's session container and records it. Refused
   * (TerminalError) while the agent runs, for a run that does not exist, or when the
   * session has no sandbox.
   */
  async runUserCommand(runId: string, command: string): Promise<UserCommandRecord> {
    if (!command.trim()) throw new TerminalError('invalid_input', 'Type a command to run.');
    if (command.length > MAX_COMMAND_LENGTH) {
      throw new TerminalError(
        'invalid_input',
        `The command is ${command.length} characters; at most ${MAX_COMMAND_LENGTH} can be typed.`,
      );
    }
    const refused = this.refusal(runId);
    if (refused) throw refused;
    const runState = this.runs.isRunning(runId) ? 'paused' : 'finished';
    const settings = this.services.loadConfig().sandbox;
    if (!settings.use_sandbox) {
      throw new TerminalError(
        'unavailable',
        'The sandbox is off ([sandbox] use_sandbox = false): the terminal runs commands only in a sandbox container, never on this computer.',
      );
    }
    const session = this.sessionOf(runId);
    const busy = this.inFlight.get(session.id);
    if (busy) {
      throw new TerminalError(
        'conflict',
        `Another command typed in this session's terminal is still running (${JSON.stringify(busy.command)}): wait for it to return.`,
      );
    }
    // held from here, in this tick: a resume asked for from now on is refused
    this.inFlight.set(session.id, {
      runId,
      command,
      startedAt: Date.now(),
      timeoutSeconds: settings.timeout,
    });
    try {
      return await this.runHeld(runId, command, session, settings, runState);
    } finally {
      this.inFlight.delete(session.id);
    }
  }

  private async runHeld(
    runId: string,
    command: string,
    session: Session,
    settings: SandboxSettings,
    runState: UserCommandRecord['runState'],
  ): Promise<UserCommandRecord> {
    let sandbox;
    try {
      sandbox = await this.services.sandboxes.acquire(session, settings);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new TerminalError('unavailable', `The session's sandbox is not available: ${reason}`);
    }
    const ts = Date.now();
    const started = performance.now();
    // as for an agent's call: a sandbox something filled with processes is restored first,
    // and the bind-mounted workspace is measured while the command runs
    const restored = await sandbox.restoreIfSaturated().catch(() => null);
    const watchdog = new WorkspaceWatchdog(
      session.workspaceDir,
      settings,
      undefined,
      'the command was stopped',
    );
    let result: CommandResult;
    try {
      result = await sandbox.exec(['bash', '-c', command], {
        timeoutMs: settings.timeout * 1000,
        signal: watchdog.signal,
      });
      await watchdog.finalCheck();
    } catch (error) {
      if (!(watchdog.error ?? error instanceof SandboxError)) throw error;
      const failure = watchdog.error ?? (error as SandboxError);
      if (!(failure instanceof WorkspaceFullError)) {
        throw new TerminalError('unavailable', failure.message);
      }
      result ??= emptyResult();
      result = { ...result, exitCode: null, notes: [...result.notes, failure.message] };
    } finally {
      watchdog.stop();
    }
    const notes = restored ? [restored, ...result.notes] : result.notes;
    const output = [result.stdout, result.stderr, ...notes].filter(Boolean).join('\n');
    return this.log.append({
      type: 'user.command',
      runId,
      ts,
      command,
      output,
      exitCode: result.exitCode,
      durationMs: Math.round(performance.now() - started),
      timedOut: result.timedOut,
      runState,
      containerId: sandbox.id,
    });
  }

  private isAgentRunning(runId: string): boolean {
    if (!this.runs.isRunning(runId)) return false;
    return this.runs.debugger(runId)?.status.state !== 'paused';
  }

  /**
   * The run's session: the open one, else (a finished run after a restart) the session of
   * its workspace folder if that folder is still there. A run in a folder the user chose
   * (`--workspace`) whose session is no longer open is refused rather than guessed at.
   */
  private sessionOf(runId: string): Session {
    const sessionId = this.runs.get(runId)?.sessionId;
    if (sessionId === undefined) {
      throw new TerminalError('unavailable', `Run ${runId} names no session: it has no sandbox.`);
    }
    const open = this.services.sessions.get(sessionId);
    if (open && !open.closed) return open;
    if (isSessionId(sessionId) && existsSync(join(this.workspacesDir, sessionId))) {
      return this.services.sessions.open(sessionId);
    }
    throw new TerminalError(
      'unavailable',
      `The workspace of session ${sessionId} is no longer open: the terminal cannot reach it.`,
    );
  }
}

/** What a command that was stopped before it said anything returned. */
function emptyResult(): CommandResult {
  return {
    exitCode: null,
    stdout: '',
    stderr: '',
    timedOut: false,
    truncated: false,
    oomKilled: false,
    notes: [],
    cuts: [],
  };
}
