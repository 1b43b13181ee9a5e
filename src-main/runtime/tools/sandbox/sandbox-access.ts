/**
 * How the sandbox tools of one agent reach the session's sandbox: through the session
 * (`manager.acquire(session, ...)` uses `session.use('sandbox', ...)`), so every tool of
 * every run of the session shares one container. It also forwards the session's
 * `sandbox.changed` events into this run's event stream while the run lasts.
 *
 * An access lives as long as one agent's run. Once the sandbox is definitely unavailable
 * (the engine does not answer, the image cannot be had), it does not ask again in that run
 * and its tools answer as SandboxOutage says: the run ends, or the model is told.
 */
import type { RunEventPayload } from '@shared/events';
import type { SandboxSettings } from '../../config/schema';
import type { Sandbox } from '../../sandbox/sandbox';
import type { SandboxManager } from '../../sandbox/sandbox-manager';
import { ContainerGoneError, SandboxError } from '../../sandbox/errors';
import type { ToolResult } from '../tool';
import { failureAsResult } from './format-result';
import { SandboxOutage, type SandboxCall, type SandboxNeed } from './sandbox-outage';
import { WorkspaceWatchdog } from './workspace-watchdog';
import type { Session } from '../../session/session';

export interface SandboxAccessInput {
  /** undefined where the runtime has no sandbox manager (some tests); tools then say so */
  manager: SandboxManager | undefined;
  session: Session;
  settings: SandboxSettings;
  emit: (event: RunEventPayload) => void;
  /** how much the agent needs the sandbox (SandboxOutage); default `optional` */
  need?: SandboxNeed;
  /** the agent's sandbox tools, named when the model is told they cannot be used */
  toolNames?: readonly string[];
}

export class SandboxAccess {
  private unwatch: (() => void) | null = null;
  private releaseLease: (() => void) | null = null;
  private isDisposed = false;
  private readonly lifetime = new AbortController();
  private readonly outage: SandboxOutage;

  constructor(private readonly input: SandboxAccessInput) {
    this.outage = new SandboxOutage(input.need ?? 'optional', input.toolNames ?? []);
  }

  get settings(): SandboxSettings {
    return this.input.settings;
  }

  /**
   * The session's sandbox, created on first use. After a definite failure (this call's, the
   * pre-warm's or an earlier call's) it fails with that failure without asking again.
   */
  async get(signal?: AbortSignal): Promise<Sandbox> {
    const known = this.outage.failure;
    if (known) throw known;
    const manager = this.input.manager;
    if (!manager) {
      throw new SandboxError('internal', 'No sandbox manager is available in this runtime');
    }
    if (!this.unwatch && !this.isDisposed) {
      this.unwatch = manager.watch(this.input.session.id, (event) => this.input.emit(event));
      // While this run lasts its sandbox is not handed to another session.
      this.releaseLease = manager.lease(this.input.session.id);
    }
    try {
      return await manager.acquire(
        this.input.session,
        this.input.settings,
        signal ? { signal } : {},
      );
    } catch (error) {
      // A definite failure is rethrown as the outage's own error object, so
      // `failureResult` knows it.
      throw this.outage.record(error) ?? error;
    }
  }

  /**
   * What a sandbox tool answers for an error of `use`: the outage's answer when the
   * sandbox is definitely unavailable (it may end the run), else the error as an
   * observation (failureAsResult; a cancellation is rethrown).
   */
  failureResult(error: unknown, call: SandboxCall): ToolResult {
    if (error !== null && error === this.outage.failure) return this.outage.answer(call);
    return failureAsResult(error);
  }

  /**
   * Runs `work` with the sandbox. If the container turns out to be gone before the work
   * started (removed or stopped from outside), a new sandbox is created and the work runs
   * once more; if it died mid-way, the error says so and the next call recreates it.
   * `work` must use the signal it is given: it also fires when the workspace outgrows
   * `[sandbox] workspace_limit`, which then ends the call with WorkspaceFullError.
   */
  async use<T>(
    signal: AbortSignal | undefined,
    work: (sandbox: Sandbox, signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const watchdog = new WorkspaceWatchdog(
      this.input.session.workspaceDir,
      this.input.settings,
      signal,
    );
    try {
      for (let attempt = 0; ; attempt++) {
        const sandbox = await this.get(signal);
        // Something left in the background may have filled it since the last call; a
        // restart bumps its generation, so the bash tool opens a fresh shell and says so.
        await sandbox.restoreIfSaturated().catch(() => null);
        try {
          const result = await sandbox.hold(() => work(sandbox, watchdog.signal));
          await watchdog.finalCheck();
          return result;
        } catch (error) {
          if (watchdog.error) throw watchdog.error;
          if (attempt === 0 && error instanceof ContainerGoneError && error.isBeforeStart) continue;
          throw error;
        }
      }
    } finally {
      watchdog.stop();
    }
  }

  /** Starts creating the sandbox now, so it is ready when the first tool call comes. */
  prewarm(): void {
    if (!this.input.manager || !this.input.settings.use_sandbox) return;
    // Agents are built before their run starts: wait a turn of the event loop so the
    // first `sandbox.changed` comes after `run.started`. A failure is reported as a
    // failed `sandbox.changed` event and again by the first tool call.
    setImmediate(() => {
      if (this.isDisposed) return;
      this.get(this.lifetime.signal).catch(() => undefined);
    });
  }

  /** Stops forwarding events (the run is over); the sandbox itself belongs to the session. */
  dispose(): void {
    this.isDisposed = true;
    this.lifetime.abort();
    this.unwatch?.();
    this.unwatch = null;
    this.releaseLease?.();
    this.releaseLease = null;
  }
}
