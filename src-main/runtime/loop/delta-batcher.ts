/**
 * Streamed text arrives a token or two per chunk: one event each would put thousands of
 * `llm.delta` lines per reply into the run history. Pieces are joined and emitted at most
 * every `intervalMs` (fast enough to look live), and flushed before the reply is complete.
 */
export const DELTA_INTERVAL_MS = 50;

export class DeltaBatcher {
  private buffer = '';
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly emit: (text: string) => void,
    private readonly intervalMs = DELTA_INTERVAL_MS,
  ) {}

  push(text: string): void {
    if (!text) return;
    this.buffer += text;
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  /** Emits what is buffered now; safe to call any number of times. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.buffer) return;
    const text = this.buffer;
    this.buffer = '';
    this.emit(text);
  }
}
