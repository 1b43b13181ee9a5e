/**
 * One sandbox: a running container owned by one session. It runs commands (one-shot
 * execs and persistent shells), moves files in and out through archives, notices when
 * something went wrong (container gone, out of memory, process limit reached) and says
 * so in words a user can act on. It is a session resource: closing the session removes
 * the container.
 */
import { posix } from 'node:path';
import type { SandboxChangedEvent } from '@shared/events';
import type { SandboxSettings } from '../config/schema';
import type { SessionResource } from '../session/session';
import { isCancellation } from '../util/abort';
import type { SandboxUser } from './container-policy';
import type { ContainerEngine, ContainerState } from './engine';
import {
  ContainerGoneError,
  EngineDisconnectedError,
  SandboxError,
  engineMessage,
  statusOf,
} from './errors';
import { readOomKillCount } from './oom-count';
import { runOneShot, type ExecOptions, type ExecResult } from './one-shot-exec';
import { PersistentShell, type ShellResult, type ShellRunOptions } from './persistent-shell';
import { killMarkedArgv } from './process-killer';
import { SaturationGuard } from './saturation-guard';
import { createTar, parseTar, type TarEntry, type TarFileInput } from './tar-archive';

export type SandboxStatusUpdate = Omit<SandboxChangedEvent, 'type' | 'image'>;

export interface SandboxInit {
  engine: ContainerEngine;
  containerId: string;
  sessionId: string;
  settings: SandboxSettings;
  user: SandboxUser;
  policy: string;
  notify: (update: SandboxStatusUpdate) => void;
  /** `isRemoved` false: the engine did not confirm the removal (retry later) */
  onDisposed: (sandbox: Sandbox, isRemoved: boolean) => void;
}

/** What every command returns, from a one-shot exec or the persistent shell (with its cuts). */
export interface CommandResult extends Pick<ExecResult, 'cuts'> {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  truncated: boolean;
  /** the command (or the sandbox) was killed for exceeding the memory limit */
  oomKilled: boolean;
  /** what the sandbox did about a problem, in plain words (shown to the model) */
  notes: string[];
  /** stdout as bytes (capped), for binary-safe callers; one-shot execs only */
  stdoutBytes?: Buffer;
}

/** Podman's refusal to create an exec in a stopped container (Docker: a 409). */
const EXEC_REFUSED = /can only create exec sessions on running containers/i;

export class Sandbox implements SessionResource {
  readonly id: string;
  readonly sessionId: string;
  readonly settings: SandboxSettings;
  readonly policy: string;
  readonly user: string;
  private readonly engine: ContainerEngine;
  private readonly init: SandboxInit;
  private active = 0;
  private goneReason: string | null = null;
  private isDisposed = false;
  private oomKillsSeen = 0;
  private restarts = 0;
  private readonly saturation: SaturationGuard;
  private restarting: Promise<void> | null = null;
  /** a checkpoint's capture of the workspace in progress: calls wait for it (holdCallsUntil) */
  private capture: Promise<unknown> = Promise.resolve();

  constructor(init: SandboxInit) {
    this.init = init;
    this.engine = init.engine;
    this.id = init.containerId;
    this.sessionId = init.sessionId;
    this.settings = init.settings;
    this.policy = init.policy;
    this.user = `${init.user.uid}:${init.user.gid}`;
    this.saturation = new SaturationGuard({
      pidsLimit: init.settings.pids_limit,
      countProcesses: () => this.engine.containerPids(this.id),
      countLimited: () => this.engine.cgroupPids(this.id),
      restart: () => this.restart(),
      isAlive: () => !this.isGone,
      isBusy: () => this.isBusy,
    });
  }

  get image(): string {
    return this.settings.image;
  }

  get workDir(): string {
    return this.settings.work_dir;
  }

  get isGone(): boolean {
    return this.goneReason !== null || this.isDisposed;
  }

  get isBusy(): boolean {
    return this.active > 0;
  }

  /** Incremented when the container was restarted (shells opened before are dead). */
  get generation(): number {
    return this.restarts;
  }

  get uid(): number {
    return this.init.user.uid;
  }

  get gid(): number {
    return this.init.user.gid;
  }

  /** Runs argv as one exec, killed inside the container at its deadline. */
  async exec(argv: string[], options: ExecOptions): Promise<CommandResult> {
    return this.hold(async () => {
      let result: ExecResult;
      try {
        result = await runOneShot(
          {
            engine: this.engine,
            containerId: this.id,
            user: this.user,
            kill: (token) => this.runHelper(killMarkedArgv(token)),
          },
          argv,
          { workingDir: this.workDir, ...options },
        );
      } catch (error) {
        throw await this.explain(error);
      }
      return this.review(result, result.exitCode === null);
    });
  }

  /** A new persistent shell in this sandbox (in `workingDir`, default the workspace). */
  async openShell(options: { workingDir?: string; signal?: AbortSignal } = {}) {
    try {
      return await PersistentShell.open(
        {
          engine: this.engine,
          containerId: this.id,
          user: this.user,
          runHelper: (argv) => this.runHelper(argv),
        },
        {
          workingDir: options.workingDir ?? this.workDir,
          ...(options.signal ? { signal: options.signal } : {}),
        },
      );
    } catch (error) {
      throw await this.explain(error);
    }
  }

  /** Runs a command in a shell of this sandbox, with the same checks as `exec`. */
  async runInShell(
    shell: PersistentShell,
    command: string,
    options: ShellRunOptions,
  ): Promise<CommandResult & { cwd: string; shellExited: boolean }> {
    return this.hold(async () => {
      let result: ShellResult;
      try {
        result = await shell.run(command, options);
      } catch (error) {
        throw await this.explain(error);
      }
      const isCrowded = result.processCount >= this.saturation.full;
      const reviewed = await this.review(result, result.shellExited, isCrowded);
      if (result.shellExited && !result.timedOut) {
        reviewed.notes.push('The shell exited; the next command starts a new shell.');
      }
      return { ...reviewed, cwd: result.cwd, shellExited: result.shellExited };
    });
  }

  /** Reads a file through the archive API (binary-safe; no shell involved). */
  async readFile(path: string, options: { signal?: AbortSignal } = {}): Promise<TarEntry> {
    const entries = await this.getEntries(path, options);
    const entry = entries.find((e) => e.type === 'file') ?? entries[0];
    if (!entry || entry.type !== 'file') {
      throw new SandboxError('internal', `${path} is not a regular file`);
    }
    return entry;
  }

  /** Writes one file (its folder must exist), owned by the sandbox user. */
  async writeFile(
    path: string,
    data: Buffer | string,
    options: { mode?: number; signal?: AbortSignal } = {},
  ): Promise<void> {
    await this.putEntries(
      posix.dirname(path),
      [
        {
          path: posix.basename(path),
          data,
          ...(options.mode !== undefined ? { mode: options.mode } : {}),
        },
      ],
      options,
    );
  }

  /** File transfer in: extracts the entries into `dir` (which must exist). */
  async putEntries(
    dir: string,
    entries: TarFileInput[],
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    const owned = entries.map((e) => ({ uid: this.uid, gid: this.gid, ...e }));
    await this.hold(async () => {
      try {
        await this.engine.putArchive(this.id, dir, await createTar(owned), options);
      } catch (error) {
        throw await this.explain(error);
      }
    });
  }

  /** File transfer out: the file or folder at `path` as archive entries. */
  async getEntries(path: string, options: { signal?: AbortSignal } = {}): Promise<TarEntry[]> {
    return this.hold(async () => {
      try {
        return await parseTar(await this.engine.getArchive(this.id, path, options));
      } catch (error) {
        throw await this.explain(error);
      }
    });
  }

  /** Removes the container. Idempotent. */
  async dispose(): Promise<void> {
    if (this.isDisposed) return;
    this.isDisposed = true;
    this.saturation.dispose();
    try {
      await this.engine.removeContainer(this.id);
    } catch (error) {
      this.init.onDisposed(this, false);
      throw error;
    }
    this.init.notify({ status: 'removed', containerId: this.id });
    this.init.onDisposed(this, true);
  }

  /** Kills everything and restarts the container (same workspace, fresh /tmp). */
  async restart(): Promise<void> {
    // Calls under way wait for it before judging the container (stopped mid-restart is not dead).
    const restarting = this.engine.restartContainer(this.id);
    this.restarting = restarting.then(
      () => undefined,
      () => undefined,
    );
    await restarting.finally(() => (this.restarting = null));
    this.restarts++;
    this.oomKillsSeen = 0;
  }

  private async runHelper(argv: string[]): Promise<void> {
    await runOneShot(
      { engine: this.engine, containerId: this.id, user: this.user, kill: async () => undefined },
      argv,
      { timeoutMs: 10_000 },
    );
  }

  /**
   * Holds every call made through this sandbox (every tool call goes through `hold`) until
   * `capture` settles: a step boundary's checkpoint captures the workspace while the next
   * step's model call runs, and no tool of that step writes to it before the capture is
   * done (issue 27, checkpoint-recorder.ts).
   */
  holdCallsUntil(capture: Promise<unknown>): void {
    const before = this.capture;
    this.capture = Promise.allSettled([before, capture]);
  }

  /**
   * Marks the sandbox busy while `work` runs (nested holds count once), so one tool call
   * gives one `busy` and one `idle` event however many engine calls it makes.
   */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    await this.capture;
    if (this.goneReason !== null) {
      const gone = new ContainerGoneError(this.id, this.goneReason);
      gone.isBeforeStart = true;
      throw gone;
    }
    if (this.active++ === 0) this.init.notify({ status: 'busy', containerId: this.id });
    try {
      return await work();
    } finally {
      if (--this.active === 0 && !this.isDisposed && this.goneReason === null) {
        this.init.notify({ status: 'idle', containerId: this.id });
      }
    }
  }

  /** Adds what happened to a finished command: out of memory, process limit reached. */
  private async review(
    result: Omit<CommandResult, 'oomKilled' | 'notes' | 'stdoutBytes'> & { stdoutBytes?: Buffer },
    isSuspicious: boolean,
    isCrowded = false,
  ): Promise<CommandResult> {
    if (isSuspicious && !result.timedOut) {
      // No exit status: the container, or the engine, may have died under the command.
      let state: ContainerState | null;
      try {
        await this.restarting;
        state = await this.engine.inspectContainer(this.id);
      } catch (error) {
        throw new EngineDisconnectedError(
          `The Docker engine stopped answering while the command ran. ${(error as Error).message}`,
          { cause: error },
        );
      }
      if (state === null) throw this.markGone('it was removed while the command ran');
      if (state && !state.isRunning) throw this.markGone(stoppedDetail(state.isOomKilled));
    }
    const reviewed: CommandResult = {
      exitCode: result.exitCode,
      stdout: result.stdout,
      stderr: result.stderr,
      timedOut: result.timedOut,
      truncated: result.truncated,
      oomKilled: false,
      notes: [],
      ...(result.stdoutBytes ? { stdoutBytes: result.stdoutBytes } : {}),
      cuts: result.cuts,
    };
    // SIGKILLed (137, or bash's "Killed" for a job inside a longer command): maybe OOM.
    const wasKilled = result.exitCode === 137 || /\bKilled\b/.test(result.stderr);
    if (!result.timedOut && (wasKilled || isSuspicious)) {
      reviewed.oomKilled = await this.sawNewOomKill();
    }
    // After every command, not only suspicious ones: a fork bomb started in the background
    // returns at once with exit 0 and fills the process table a moment later (issue 12
    // item 4: found in only 48 of 119 such runs, and the next call stalled for 20 s).
    const note = await this.saturation.afterCall(isCrowded);
    if (note) reviewed.notes.push(note);
    return reviewed;
  }

  /** True when the memory cgroup recorded an OOM kill since the last look. */
  private async sawNewOomKill(): Promise<boolean> {
    const count = await readOomKillCount(this.engine, this.id, this.user);
    if (count !== null) {
      const isNew = count > this.oomKillsSeen;
      this.oomKillsSeen = count;
      if (isNew) return true;
    }
    // The container itself may be gone; the inspect tells.
    const state = await this.engine.inspectContainer(this.id).catch(() => null);
    return state?.isOomKilled === true && !state.isRunning;
  }

  /**
   * Before a call: restores a sandbox that something left running in the background has
   * filled since the last call. Returns what was done, or null.
   */
  async restoreIfSaturated(): Promise<string | null> {
    // The coming call's result says it too (the model learns why its processes are gone).
    return this.isGone ? null : this.saturation.beforeCall();
  }

  /** Turns a failed engine call into an error that says what happened. */
  private async explain(error: unknown): Promise<unknown> {
    if (isCancellation(error) || error instanceof ContainerGoneError) return error;
    // A 404 may mean "no such container" or "no such file": ask the engine which.
    await this.restarting;
    const state = await this.engine.inspectContainer(this.id).catch(() => undefined);
    const gone =
      state === null
        ? this.markGone('it was removed')
        : state && !state.isRunning
          ? this.markGone(stoppedDetail(state.isOomKilled))
          : null;
    if (gone) {
      // The engine refused to create the exec: the command never ran, so a retry is safe.
      const status = statusOf(error);
      // (Podman says so with a 500: "can only create exec sessions on running containers")
      gone.isBeforeStart =
        status === 404 || status === 409 || EXEC_REFUSED.test(engineMessage(error));
      return gone;
    }
    if (/resource temporarily unavailable/i.test(engineMessage(error))) {
      const note = await this.saturation.afterCall(true);
      if (note) return new SandboxError('internal', `${note} Run the command again.`);
    }
    return error;
  }

  private markGone(reason: string): ContainerGoneError {
    this.goneReason = reason;
    this.init.notify({ status: 'failed', containerId: this.id, error: reason });
    return new ContainerGoneError(this.id, reason);
  }
}

function stoppedDetail(isOomKilled: boolean): string {
  return isOomKilled
    ? 'it ran out of memory and stopped; raise [sandbox] memory_limit if the task needs more'
    : 'it was stopped';
}
