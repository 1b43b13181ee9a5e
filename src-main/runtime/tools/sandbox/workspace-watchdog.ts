/**
 * Watches a session's workspace folder while a sandbox call runs (reliability.md S4):
 * the folder is bind-mounted, so nothing in the container bounds it. Every second it
 * measures the folder; past `[sandbox] workspace_limit` it aborts the call's signal
 * (the command is killed inside the container) and keeps the error for the caller.
 * A final check after the call catches writers faster than one interval.
 */
import type { SandboxSettings } from '../../config/schema';
import { WorkspaceFullError } from '../../sandbox/errors';
import { parseByteSize, workspaceBytes } from '../../sandbox/workspace-size';

const INTERVAL_MS = 1_000;

export class WorkspaceWatchdog {
  private readonly controller = new AbortController();
  private readonly limit: number;
  private timer: NodeJS.Timeout | null = null;
  private measuring = false;
  /** forwards the run's stop; removed in stop(), or every tool call would leave one behind */
  private readonly detachOuter: () => void;
  error: WorkspaceFullError | null = null;

  constructor(
    private readonly dir: string,
    private readonly settings: Pick<SandboxSettings, 'workspace_limit'>,
    outer: AbortSignal | undefined,
    /** how its error ends (WorkspaceFullError): the agent's run, or only the typed command */
    private readonly consequence?: string,
  ) {
    this.limit = parseByteSize(settings.workspace_limit);
    const forward = () => this.controller.abort(outer?.reason);
    if (outer?.aborted) forward();
    else outer?.addEventListener('abort', forward, { once: true });
    this.detachOuter = () => outer?.removeEventListener('abort', forward);
    this.timer = setInterval(() => void this.measure(), INTERVAL_MS);
    this.timer.unref?.();
  }

  /** The call's signal: the run's, and this watchdog's. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  async finalCheck(): Promise<void> {
    await this.measure();
    if (this.error) throw this.error;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.detachOuter();
  }

  private async measure(): Promise<void> {
    if (this.measuring || this.error) return;
    this.measuring = true;
    try {
      const bytes = await workspaceBytes(this.dir, this.limit);
      if (bytes > this.limit) {
        this.error = new WorkspaceFullError(
          bytes,
          this.settings.workspace_limit,
          this.dir,
          ...(this.consequence !== undefined ? [this.consequence] : []),
        );
        this.stop();
        this.controller.abort(this.error);
      }
    } finally {
      this.measuring = false;
    }
  }
}
