/**
 * One command as its own `docker exec`: argv (never a shell string built from user
 * input), optional bytes on stdin, output streamed and capped, and a deadline enforced
 * inside the container. Each exec carries a random WB_EXEC token in its environment so
 * that on timeout or cancel the killer can find it and everything it started, also
 * processes re-parented to init.
 */
import { randomBytes } from 'node:crypto';
import { abortError, waitOutcome } from '../util/abort';
import { CappedOutput, cutsOf, DEFAULT_OUTPUT_CAP_BYTES, type OutputCut } from './capped-output';
import type { ContainerEngine } from './engine';

export interface ExecOptions {
  /** the command's own deadline, enforced by killing it inside the container */
  timeoutMs: number;
  signal?: AbortSignal;
  /** bytes written to the command's stdin, then EOF; without it stdin is closed */
  stdin?: Buffer | string;
  env?: string[];
  workingDir?: string;
  outputCapBytes?: number;
  onStdout?: (chunk: Buffer) => void;
  onStderr?: (chunk: Buffer) => void;
}

export interface ExecResult {
  /** null when the process did not report one (killed with the container, engine gone) */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** output was longer than the cap; the middle was replaced by a marker */
  truncated: boolean;
  /** stdout as bytes (capped), for binary-safe callers */
  stdoutBytes: Buffer;
  /** the cuts the capture cap made (stdout's, then stderr's) */
  cuts: OutputCut[];
}

/** Grace for the killed process's stream to end before the connection is dropped. */
export const KILL_GRACE_MS = 3_000;

export interface OneShotTarget {
  engine: ContainerEngine;
  containerId: string;
  user: string;
  /** kills the exec tagged with this token and its descendants inside the container */
  kill(token: string): Promise<void>;
}

export async function runOneShot(
  target: OneShotTarget,
  argv: string[],
  options: ExecOptions,
): Promise<ExecResult> {
  const token = randomBytes(12).toString('hex');
  const stream = await target.engine.startExec(
    target.containerId,
    {
      cmd: argv,
      user: target.user,
      env: [...(options.env ?? []), `WB_EXEC=${token}`],
      ...(options.workingDir ? { workingDir: options.workingDir } : {}),
      attachStdin: options.stdin !== undefined,
    },
    options.signal ? { signal: options.signal } : {},
  );
  const cap = options.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES;
  const stdout = new CappedOutput(cap);
  const stderr = new CappedOutput(cap);
  stream.onStdout((chunk) => {
    stdout.push(chunk);
    options.onStdout?.(chunk);
  });
  stream.onStderr((chunk) => {
    stderr.push(chunk);
    options.onStderr?.(chunk);
  });
  if (options.stdin !== undefined) {
    stream.write(options.stdin);
    stream.closeStdin();
  }

  const outcome = await waitOutcome(stream.ended, options.timeoutMs, options.signal);
  if (outcome !== 'done') {
    await target.kill(token).catch(() => undefined);
    await Promise.race([stream.ended.catch(() => undefined), delay(KILL_GRACE_MS)]);
    stream.destroy();
    if (outcome === 'aborted') throw abortError(options.signal);
  }
  const exitCode = await exitCodeOf(target.engine, stream.id);
  const stdoutBytes = stdout.toBuffer();
  return {
    exitCode,
    stdout: stdoutBytes.toString('utf8'),
    stderr: stderr.toString(),
    timedOut: outcome === 'timeout',
    truncated: stdout.isTruncated || stderr.isTruncated,
    stdoutBytes,
    cuts: cutsOf(stdout, stderr),
  };
}

/** The exec's exit code; the engine may need a moment after the stream ends to record it. */
export async function exitCodeOf(engine: ContainerEngine, execId: string): Promise<number | null> {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      const state = await engine.inspectExec(execId, { timeoutMs: 5_000 });
      if (!state.isRunning) return state.exitCode;
    } catch {
      return null;
    }
    await delay(25);
  }
  return null;
}

/**
 * A wait the caller depends on, so its timer keeps the process alive: with unref() here,
 * a CLI run polling for an exit code (or waiting out the kill grace) with nothing else
 * pending was a process with nothing to do, and Node exited 0 mid-run (issue 12 item 3).
 */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
