/**
 * Sandbox failures as typed errors whose message says what happened and what to do.
 * Tools turn them into error observations; the message is what the user (and the model)
 * reads, so it names the engine endpoint, the image or the command to run.
 */

import type { SandboxFailureReason } from '@shared/events';

/** The kinds travel as `sandbox.changed` `reason`, so a UI can offer the fix. */
export type SandboxErrorKind = SandboxFailureReason;

export class SandboxError extends Error {
  constructor(
    readonly kind: SandboxErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SandboxError';
  }
}

/** The engine cannot be reached: not installed, not running, no permission, or hung. */
export class EngineUnavailableError extends SandboxError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('engine_unavailable', message, options);
    this.name = 'EngineUnavailableError';
  }
}

export class EngineTimeoutError extends SandboxError {
  constructor(what: string, timeoutMs: number, endpoint: string) {
    super(
      'engine_timeout',
      `The Docker engine at ${endpoint} did not finish "${what}" within ${formatMs(timeoutMs)}. ` +
        'Check that Docker is running and responsive (`docker info`), then try again.',
    );
    this.name = 'EngineTimeoutError';
  }
}

/** The connection to the engine broke while a command was running. */
export class EngineDisconnectedError extends SandboxError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('engine_disconnected', message, options);
    this.name = 'EngineDisconnectedError';
  }
}

export class ImageUnavailableError extends SandboxError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('image_unavailable', message, options);
    this.name = 'ImageUnavailableError';
  }
}

/** The container was removed or stopped outside the app (or the engine restarted). */
export class ContainerGoneError extends SandboxError {
  /** true when the engine refused to start the command: nothing ran, a retry is safe */
  isBeforeStart = false;

  constructor(containerId: string, detail: string, options?: { cause?: unknown }) {
    super(
      'container_gone',
      `The sandbox container ${containerId.slice(0, 12)} is no longer running (${detail}). ` +
        'A new sandbox is created on the next call; files in the workspace are kept.',
      options,
    );
    this.name = 'ContainerGoneError';
  }
}

/**
 * Failures that mean the sandbox will not start in this run however often it is asked:
 * no engine answers (no socket, refused, no permission, an untrusted host, no engine of
 * `[sandbox] engines`), the image is missing and cannot be pulled (a local-only tag, a
 * pull the registry or the network refused, a pull that left no image), or the sandbox is
 * turned off. A run meeting one ends or stops calling the sandbox (SandboxOutage).
 * Not definite: a timeout or a dropped connection (a busy or restarting engine may answer
 * the next call), a container gone (it is recreated), and internal errors.
 */
const DEFINITE_KINDS: ReadonlySet<SandboxErrorKind> = new Set([
  'engine_unavailable',
  'image_unavailable',
  'sandbox_disabled',
]);

export function isDefiniteFailure(error: unknown): error is SandboxError {
  return error instanceof SandboxError && DEFINITE_KINDS.has(error.kind);
}

interface ErrorShape {
  code?: unknown;
  statusCode?: unknown;
  message?: unknown;
  name?: unknown;
  json?: unknown;
}

/** The HTTP status of a dockerode error, if it carries one. */
export function statusOf(error: unknown): number | undefined {
  const status = (error as ErrorShape | null)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

export function errorCode(error: unknown): string | undefined {
  const code = (error as ErrorShape | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The engine's own message (dockerode wraps it as "(HTTP code 404) no such container - ..."). */
export function engineMessage(error: unknown): string {
  const json = (error as ErrorShape | null)?.json as { message?: unknown } | undefined;
  if (json && typeof json.message === 'string') return json.message.trim();
  const message = error instanceof Error ? error.message : String(error);
  return message.trim();
}

const CONNECT_CODES = new Set([
  'ENOENT',
  'ECONNREFUSED',
  'EACCES',
  'EPERM',
  'ENOTFOUND',
  'EHOSTUNREACH',
]);
const BROKEN_CODES = new Set(['ECONNRESET', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE', 'ECONNABORTED']);

/** True when the error means the engine could not be reached at all. */
export function isConnectError(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && CONNECT_CODES.has(code);
}

export function isBrokenConnection(error: unknown): boolean {
  const code = errorCode(error);
  if (code !== undefined && BROKEN_CODES.has(code)) return true;
  const message = error instanceof Error ? error.message : '';
  return /socket hang up|premature close|aborted/i.test(message) && statusOf(error) === undefined;
}

/** Turns a connection failure into a message that says what to do. */
export function engineUnavailable(error: unknown, endpoint: string): EngineUnavailableError {
  const code = errorCode(error);
  const detail = engineMessage(error);
  const isSocket = endpoint.startsWith('unix://') || endpoint.startsWith('npipe://');
  let advice: string;
  if (code === 'EACCES' || code === 'EPERM') {
    advice =
      `Permission denied on ${endpoint}. Add your user to the "docker" group ` +
      '(`sudo usermod -aG docker $USER`, then log in again) or use Docker Desktop.';
  } else if (code === 'ENOENT' && isSocket) {
    advice =
      `No Docker engine socket at ${endpoint}: Docker is not installed or not running. ` +
      'Install Docker (or Docker Desktop) and start it; on Debian/Ubuntu `sudo ./scripts/setup-system.sh` does both. ' +
      'Set DOCKER_HOST to use another engine.';
  } else if (code === 'ECONNREFUSED' || code === 'ENOENT') {
    advice =
      `The Docker engine at ${endpoint} refused the connection: it is not running. ` +
      'Start Docker (Docker Desktop, or `sudo systemctl start docker`) and try again.';
  } else {
    advice =
      `Cannot reach the Docker engine at ${endpoint} (${detail}). ` +
      'Check that Docker is running (`docker info`) and that DOCKER_HOST is right.';
  }
  return new EngineUnavailableError(
    `Docker is unavailable, so the sandbox tools cannot run. ${advice}`,
    { cause: error },
  );
}

export function formatMs(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10}s` : `${ms}ms`;
}

/**
 * The session's workspace grew past `[sandbox] workspace_limit`: the running command was
 * stopped, and the run ends (a runaway writer would otherwise fill the host's disk).
 */
export class WorkspaceFullError extends SandboxError {
  constructor(
    bytes: number,
    limitText: string,
    dir: string,
    /** what came of it: an agent's call ends its run, a command typed in the terminal does not */
    consequence = 'the command was stopped and the run ends',
  ) {
    super(
      'workspace_full',
      `The workspace grew to ${formatBytes(bytes)}, over [sandbox] workspace_limit = "${limitText}"; ` +
        `${consequence}. Free space in ${dir}, or raise workspace_limit in config.toml.`,
    );
    this.name = 'WorkspaceFullError';
  }
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${Math.round(bytes / 1024)} KiB`;
}
