/**
 * When the agents following a server take in its tool list changes. Each
 * `notifications/tools/list_changed` used to re-list the tools at once, so a server that
 * sent 50k of them got 50k tools/list requests. Now a change only marks the list stale
 * (O(1), however many arrive), and the list is fetched again:
 * - when a call to one of the server's tools ends: that is the end of the agent's step,
 *   and its next request to the model should declare the new tools (`settled` waits for
 *   it, a little);
 * - otherwise, when no call is running: after the current turn of the event loop, so a
 *   burst is taken in once, and no sooner than `gapMs` after the previous refresh began.
 * Never two refreshes at once: changes that arrive during one make one more after it.
 */

/** The least time between two refreshes that no call asked for. */
export const REFRESH_GAP_MS = 1_000;

export class ToolListRefresh {
  private stale = false;
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private calls = 0;
  private lastStart = Number.NEGATIVE_INFINITY;
  private stopped = false;

  constructor(
    private readonly refresh: () => Promise<void>,
    private readonly gapMs = REFRESH_GAP_MS,
  ) {}

  /** The server's tool list changed. */
  changed(): void {
    this.stale = true;
    this.schedule();
  }

  callStarted(): void {
    this.calls++;
  }

  /** A call ended: a change it brought is taken in now, so the next step sees it. */
  callEnded(): void {
    this.calls = Math.max(0, this.calls - 1);
    if (this.stale && !this.running) this.start();
  }

  /** Waits for the refresh under way, if any, at most `graceMs`. */
  async settled(graceMs: number): Promise<void> {
    const running = this.running;
    if (!running) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      running,
      new Promise((resolve) => {
        timer = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(timer);
  }

  /** No more refreshes (the connection closed). */
  stop(): void {
    this.stopped = true;
    this.stale = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.stopped || this.running || this.timer || this.calls > 0) return;
    const wait = Math.max(0, this.lastStart + this.gapMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.stale && !this.running && this.calls === 0) this.start();
    }, wait);
    // a pending refresh alone must not keep the process alive
    this.timer.unref();
  }

  private start(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.stale = false;
    this.lastStart = Date.now();
    this.running = this.refresh()
      .catch(() => undefined)
      .finally(() => {
        this.running = null;
        if (this.stale) this.schedule();
      });
  }
}
