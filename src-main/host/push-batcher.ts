/**
 * Collects run events and delivers them in batches, a frame's worth at a time, so a
 * run that emits thousands of events per second costs the UI a few dozen pushes.
 */
import type { RunEvent } from '@shared/events';

export const FRAME_MS = 16;

export class PushBatcher {
  private pending: RunEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly deliver: (batch: RunEvent[]) => void,
    private readonly options: { intervalMs?: number; maxBatch?: number } = {},
  ) {}

  push(event: RunEvent): void {
    this.pending.push(event);
    if (this.pending.length >= (this.options.maxBatch ?? 2000)) {
      this.flush();
      return;
    }
    this.timer ??= setTimeout(() => this.flush(), this.options.intervalMs ?? FRAME_MS);
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.deliver(batch);
  }

  dispose(): void {
    this.flush();
  }
}
