/**
 * A long-lived bash in the sandbox (OpenManus's `bash` tool, run in the container instead
 * of on the host): the working directory and environment persist between commands, each
 * command reports its exit code and keeps stdout and stderr apart, and output streams
 * while it runs. One exec serves many commands, which is what makes a command's round
 * trip much cheaper than a fresh `docker exec`.
 *
 * On timeout or cancel the command's processes are killed inside the container (not just
 * abandoned, reliability.md finding 3) and the shell stays usable. If the shell itself is
 * stuck (a shell-builtin loop), it is killed and a fresh one is started on the next
 * command in the last known working directory.
 */
import { randomBytes } from 'node:crypto';
import { abortError, waitOutcome } from '../util/abort';
import { CappedOutput, cutsOf, DEFAULT_OUTPUT_CAP_BYTES, type OutputCut } from './capped-output';
import type { ContainerEngine, ExecStream } from './engine';
import { exitCodeOf } from './one-shot-exec';
import { killShellArgv, killShellWorkArgv } from './process-killer';
import {
  MarkerScanner,
  commandLine,
  parseTrailer,
  readyLine,
  readyMarker,
  stderrMarker,
  stdoutMarkers,
} from './shell-protocol';

export interface ShellHost {
  engine: ContainerEngine;
  containerId: string;
  user: string;
  /** runs a helper (the killer) as its own exec; resolves when it is done */
  runHelper(argv: string[]): Promise<void>;
}

export interface ShellRunOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  onStdout?: (chunk: Buffer) => void;
  onStderr?: (chunk: Buffer) => void;
}

export interface ShellResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  truncated: boolean;
  /** the cuts the capture cap made (stdout's, then stderr's) */
  cuts: OutputCut[];
  /** the shell's working directory after the command */
  cwd: string;
  /** the shell ended during the command (`exit`, killed); the next command starts a new one */
  shellExited: boolean;
  /** processes in the container when the command ended (0 when unknown) */
  processCount: number;
}

interface Pending {
  nonce: string;
  stdout: CappedOutput;
  stderr: CappedOutput;
  options: ShellRunOptions;
  trailer: Buffer[] | null;
  stdoutDone: boolean;
  stderrDone: boolean;
  exitCode: number | null;
  cwd: string | null;
  processCount: number;
  finish: () => void;
}

const READY_TIMEOUT_MS = 15_000;
const KILL_ROUNDS = 3;
/** how long the shell gets to report back after a kill: longer at first, then shorter */
const KILL_ROUND_WAIT_MS = [1_000, 500, 500] as const;

export class PersistentShell {
  private stream: ExecStream | null = null;
  private shellPid = 0;
  private current: Pending | null = null;
  private readonly idleStdout: Buffer[] = [];
  private readonly idleStderr: Buffer[] = [];
  private stdoutScanner = new MarkerScanner(Buffer.from('\0'));
  private stderrScanner = new MarkerScanner(Buffer.from('\0'));
  private backgroundJobs: number[] = [];
  /** the last command was killed: bash's notice of it may arrive while the shell is idle */
  private killedLastCommand = false;
  private queue: Promise<unknown> = Promise.resolve();
  private isOpen = false;
  private cwdKnown: string;

  private constructor(
    private readonly host: ShellHost,
    private readonly env: string[],
    workingDir: string,
    private readonly outputCapBytes: number,
  ) {
    this.cwdKnown = workingDir;
  }

  static async open(
    host: ShellHost,
    options: { env?: string[]; workingDir: string; outputCapBytes?: number; signal?: AbortSignal },
  ): Promise<PersistentShell> {
    const shell = new PersistentShell(
      host,
      options.env ?? [],
      options.workingDir,
      options.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES,
    );
    await shell.start(options.signal);
    return shell;
  }

  get isAlive(): boolean {
    return this.isOpen;
  }

  get pid(): number {
    return this.shellPid;
  }

  get cwd(): string {
    return this.cwdKnown;
  }

  /** Runs one command; commands on the same shell run one after another. */
  run(command: string, options: ShellRunOptions): Promise<ShellResult> {
    const next = this.queue.then(() => this.runNow(command, options));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Ends the shell and everything it started. */
  async close(): Promise<void> {
    if (!this.isOpen) return;
    this.isOpen = false;
    await this.host.runHelper(killShellArgv(this.shellPid)).catch(() => undefined);
    this.stream?.destroy();
  }

  private async start(signal: AbortSignal | undefined): Promise<void> {
    const stream = await this.host.engine.startExec(
      this.host.containerId,
      {
        cmd: ['bash', '--noprofile', '--norc'],
        user: this.host.user,
        env: this.env,
        workingDir: this.cwdKnown,
        attachStdin: true,
      },
      signal ? { signal } : {},
    );
    this.stream = stream;
    const nonce = randomBytes(8).toString('hex');
    const marker = readyMarker(nonce);
    let ready: ((pid: number) => void) | undefined;
    const readyPromise = new Promise<number>((resolve) => (ready = resolve));
    let preamble = Buffer.alloc(0);
    let readySeen = false;
    stream.onStdout((chunk) => {
      if (readySeen) return this.onStdout(chunk);
      preamble = Buffer.concat([preamble, chunk]);
      const at = preamble.indexOf(marker.start);
      const end = at >= 0 ? preamble.indexOf(marker.end, at + marker.start.length) : -1;
      if (end < 0) return;
      readySeen = true;
      ready?.(Number(preamble.subarray(at + marker.start.length, end).toString()));
      const rest = preamble.subarray(end + marker.end.length);
      if (rest.length > 0) this.onStdout(rest);
    });
    stream.onStderr((chunk) => this.onStderr(chunk));
    stream.ended.then(
      () => this.onEnded(),
      () => this.onEnded(),
    );
    stream.write(readyLine(nonce));
    let timer: NodeJS.Timeout | undefined;
    const pid = await Promise.race([
      readyPromise,
      stream.ended.then(() => {
        throw new Error(
          'The sandbox shell exited during start-up (is bash installed in the sandbox image?)',
        );
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error('The sandbox shell did not start within 15s')),
          READY_TIMEOUT_MS,
        );
      }),
    ]).finally(() => clearTimeout(timer));
    this.shellPid = pid;
    this.isOpen = true;
  }

  private async runNow(command: string, options: ShellRunOptions): Promise<ShellResult> {
    if (!this.isOpen || !this.stream) throw new Error('The shell is not running');
    if (options.signal?.aborted) throw abortError(options.signal);
    const nonce = randomBytes(8).toString('hex');
    const line = commandLine(command, nonce);
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    const pending: Pending = {
      nonce,
      stdout: new CappedOutput(this.outputCapBytes),
      stderr: new CappedOutput(this.outputCapBytes),
      options,
      trailer: null,
      stdoutDone: false,
      stderrDone: false,
      exitCode: null,
      cwd: null,
      processCount: 0,
      finish,
    };
    // Output that background jobs wrote while the shell was idle belongs to what comes next,
    // except bash's own notice of a job we killed ("Killed  sleep 100"), which bash may print
    // after the killed command's trailer: it is about the previous command, which already
    // said it was stopped.
    for (const chunk of this.idleStdout.splice(0)) pending.stdout.push(chunk);
    const afterKill = this.killedLastCommand;
    this.killedLastCommand = false;
    const idle = Buffer.concat(this.idleStderr.splice(0));
    const idleStderr = afterKill ? withoutKillNotices(idle) : idle;
    if (idleStderr.length > 0) pending.stderr.push(idleStderr);
    this.stdoutScanner = new MarkerScanner(stdoutMarkers(nonce).start);
    this.stderrScanner = new MarkerScanner(stderrMarker(nonce));
    this.current = pending;
    this.stream.write(line);

    const outcome = await waitOutcome(done, options.timeoutMs, options.signal);
    let timedOut = false;
    if (outcome !== 'done') {
      timedOut = outcome === 'timeout';
      this.killedLastCommand = true;
      await this.stopForeground(done);
    }
    this.current = null;
    const shellExited = !(pending.stdoutDone && pending.stderrDone);
    if (outcome === 'aborted') throw abortError(options.signal);
    if (pending.cwd) this.cwdKnown = pending.cwd;
    return {
      exitCode: pending.exitCode,
      stdout: pending.stdout.toString(),
      // bash prints the notice before it runs the next line, so it can also open this
      // command's own stderr.
      stderr: afterKill
        ? withoutKillNotices(pending.stderr.toString(), true)
        : pending.stderr.toString(),
      timedOut,
      truncated: pending.stdout.isTruncated || pending.stderr.isTruncated,
      cuts: cutsOf(pending.stdout, pending.stderr),
      cwd: this.cwdKnown,
      shellExited,
      processCount: pending.processCount,
    };
  }

  /**
   * Kills the running command's processes (keeping earlier background jobs) until the
   * shell reports back; a list like `sleep 9; sleep 9` needs a kill per element. If the
   * shell does not come back, it is the one looping: kill it.
   */
  private async stopForeground(done: Promise<void>): Promise<void> {
    for (let round = 0; round < KILL_ROUNDS; round++) {
      await this.host
        .runHelper(killShellWorkArgv(this.shellPid, this.backgroundJobs))
        .catch(() => undefined);
      if ((await waitOutcome(done, KILL_ROUND_WAIT_MS[round] ?? 500)) === 'done') return;
    }
    await this.close();
    await waitOutcome(done, 1_000);
    this.current?.finish();
  }

  private onStdout(chunk: Buffer): void {
    const pending = this.current;
    if (!pending || pending.stdoutDone) {
      this.idleStdout.push(Buffer.from(chunk));
      trimTo(this.idleStdout, this.outputCapBytes);
      return;
    }
    if (pending.trailer === null) {
      const { output, found, after } = this.stdoutScanner.push(chunk);
      if (output.length > 0) {
        pending.stdout.push(output);
        pending.options.onStdout?.(Buffer.from(output));
      }
      if (!found) return;
      pending.trailer = [];
      chunk = after;
    }
    pending.trailer.push(chunk);
    const body = Buffer.concat(pending.trailer);
    const end = body.indexOf(stdoutMarkers(pending.nonce).end);
    if (end < 0) return;
    const trailer = parseTrailer(body.subarray(0, end));
    pending.exitCode = trailer.exitCode;
    pending.cwd = trailer.cwd;
    pending.processCount = trailer.processCount;
    this.backgroundJobs = trailer.jobs;
    pending.stdoutDone = true;
    const rest = body.subarray(end + stdoutMarkers(pending.nonce).end.length);
    if (rest.length > 0) this.idleStdout.push(Buffer.from(rest));
    if (pending.stderrDone) pending.finish();
  }

  private onStderr(chunk: Buffer): void {
    const pending = this.current;
    if (!pending || pending.stderrDone) {
      this.idleStderr.push(Buffer.from(chunk));
      trimTo(this.idleStderr, this.outputCapBytes);
      return;
    }
    const { output, found, after } = this.stderrScanner.push(chunk);
    if (output.length > 0) {
      pending.stderr.push(output);
      pending.options.onStderr?.(Buffer.from(output));
    }
    if (!found) return;
    pending.stderrDone = true;
    if (after.length > 0) this.idleStderr.push(after);
    if (pending.stdoutDone) pending.finish();
  }

  private onEnded(): void {
    const wasOpen = this.isOpen;
    this.isOpen = false;
    const pending = this.current;
    if (!pending) return;
    // Bytes held back while looking for a marker are output after all.
    if (pending.trailer === null) pending.stdout.push(this.stdoutScanner.flush());
    if (!pending.stderrDone) pending.stderr.push(this.stderrScanner.flush());
    if (!pending.stdoutDone && this.stream) {
      // `exit N` in a command ends the shell: report N as the command's exit code.
      void exitCodeOf(this.host.engine, this.stream.id).then((code) => {
        if (wasOpen) pending.exitCode = code;
        pending.finish();
      });
      return;
    }
    pending.finish();
  }
}

/** Keeps the most recent bytes of an idle buffer under the cap. */
function trimTo(chunks: Buffer[], cap: number): void {
  let total = chunks.reduce((sum, c) => sum + c.length, 0);
  while (total > cap && chunks.length > 1) total -= chunks.shift()?.length ?? 0;
}

/** bash's job-status line for a job killed by a signal, e.g. `bash: line 5:    16 Killed   sleep 100`. */
const KILL_NOTICE_SOURCE =
  '^bash: line \\d+: +\\d+ (Killed|Terminated|Hangup|Interrupt|Quit|Aborted)\\b.*\\n?';
const KILL_NOTICE = new RegExp(KILL_NOTICE_SOURCE, 'gm');
const LEADING_KILL_NOTICE = new RegExp(KILL_NOTICE_SOURCE);

export function withoutKillNotices(stderr: Buffer): Buffer;
export function withoutKillNotices(stderr: string, leadingOnly: true): string;
export function withoutKillNotices(stderr: Buffer | string, leadingOnly = false): Buffer | string {
  if (stderr.length === 0) return stderr;
  const text = typeof stderr === 'string' ? stderr : stderr.toString('utf8');
  let kept: string;
  if (leadingOnly) {
    kept = text;
    let match: RegExpExecArray | null;
    while ((match = LEADING_KILL_NOTICE.exec(kept)) !== null) kept = kept.slice(match[0].length);
  } else {
    kept = text.replace(KILL_NOTICE, '');
  }
  if (kept === text) return stderr;
  return typeof stderr === 'string' ? kept : Buffer.from(kept, 'utf8');
}
