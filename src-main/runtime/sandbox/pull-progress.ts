/** The engine's per-layer image pull events, folded into one progress line. */
import type { PullProgress } from './engine';

export interface PullEvent {
  status?: string;
  id?: string;
  error?: string;
  progressDetail?: { current?: number; total?: number };
}

/** Folds the engine's per-layer pull events into one progress line. */
export class PullTracker {
  private readonly layers = new Map<string, { current: number; total: number; done: boolean }>();
  private lastText = '';

  update(event: PullEvent): PullProgress | null {
    if (event.id && event.status) {
      const layer = this.layers.get(event.id) ?? { current: 0, total: 0, done: false };
      const detail = event.progressDetail ?? {};
      if (event.status === 'Downloading' && detail.total) {
        layer.current = detail.current ?? 0;
        layer.total = detail.total;
      }
      if (/complete|exists/i.test(event.status)) layer.done = true;
      this.layers.set(event.id, layer);
    }
    const all = [...this.layers.values()];
    const done = all.filter((l) => l.done).length;
    const total = all.reduce((sum, l) => sum + l.total, 0);
    const current = all.reduce((sum, l) => sum + (l.done ? l.total : l.current), 0);
    const fraction = total > 0 ? Math.min(1, current / total) : undefined;
    const text =
      all.length > 0
        ? `${done} of ${all.length} layers${fraction !== undefined ? `, ${Math.floor(fraction * 100)}%` : ''}`
        : (event.status ?? 'pulling');
    // Only report changes, and at most once per whole percent, to keep the event stream small.
    if (text === this.lastText) return null;
    this.lastText = text;
    return { text, ...(fraction !== undefined ? { fraction } : {}) };
  }
}
