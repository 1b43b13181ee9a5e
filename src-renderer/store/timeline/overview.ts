/**
 * What the run's overview strips show, computed in one pass each: the density minimap
 * (errors, stuck detections, duplicates and edits, by their place among the rows) and
 * the waterfall (per step: model time, tool time, the rest of the step, retries).
 * Both are bucketed, so a 100,000-step run draws at most a few hundred marks.
 */
import type { TimelineItem } from './types';
import { isError } from './visible-rows';

export type MarkKind = 'error' | 'stuck' | 'duplicate' | 'edit';

export interface MinimapMark {
  kind: MarkKind;
  /** bucket index: 0 (top) to buckets - 1 */
  bucket: number;
  /** the first marked item in the bucket (a click jumps to it) */
  itemId: number;
  count: number;
}

export function markOf(item: TimelineItem): MarkKind | null {
  if (item.kind === 'stuck') return 'stuck';
  if (item.kind === 'message' && item.duplicate) return 'duplicate';
  if (item.kind !== 'step' && isError(item)) return 'error';
  if ((item.kind === 'message' || item.kind === 'tool') && item.edits && item.edits.length > 0)
    return 'edit';
  if (item.kind === 'debug' && item.action === 'edited') return 'edit';
  return null;
}

/** Marks of the rows `0..count-1` (`itemAt` maps a row to its item), in `buckets` buckets. */
export function minimapMarks(
  count: number,
  itemAt: (row: number) => TimelineItem | undefined,
  buckets: number,
): MinimapMark[] {
  const byKey = new Map<string, MinimapMark>();
  for (let row = 0; row < count; row++) {
    const item = itemAt(row);
    const kind = item ? markOf(item) : null;
    if (!item || !kind) continue;
    const bucket = Math.min(buckets - 1, Math.floor((row / count) * buckets));
    const k = `${kind}:${bucket}`;
    const mark = byKey.get(k);
    if (mark) mark.count += 1;
    else byKey.set(k, { kind, bucket, itemId: item.id, count: 1 });
  }
  return [...byKey.values()];
}

export interface StepTiming {
  stepId: number;
  step: number;
  agent: string;
  modelMs: number;
  toolMs: number;
  /** the step's time not spent in the model or its tools (waits, the loop itself) */
  otherMs: number;
  retries: number;
  hasError: boolean;
}

/** Per step, in order: where its time went. */
export function stepTimings(items: readonly TimelineItem[]): StepTiming[] {
  const timings: StepTiming[] = [];
  const byStep = new Map<number, StepTiming>();
  for (const item of items) {
    if (item.kind === 'step') {
      const timing: StepTiming = {
        stepId: item.id,
        step: item.step,
        agent: item.agent,
        modelMs: 0,
        toolMs: 0,
        otherMs: item.durationMs ?? 0,
        retries: 0,
        hasError: item.hasError,
      };
      byStep.set(item.id, timing);
      timings.push(timing);
      continue;
    }
    const timing = byStep.get(item.stepId);
    if (!timing) continue;
    if (item.kind === 'message' && item.response) timing.modelMs += item.response.durationMs;
    else if (item.kind === 'tool') timing.toolMs += item.durationMs ?? 0;
    else if (item.kind === 'marker' && item.marker === 'retry') timing.retries += 1;
  }
  for (const t of timings) t.otherMs = Math.max(0, t.otherMs - t.modelMs - t.toolMs);
  return timings;
}

export interface WaterfallBar {
  /** the first step in the bar (a click jumps to it) */
  stepId: number;
  firstStep: number;
  lastStep: number;
  modelMs: number;
  toolMs: number;
  otherMs: number;
  retries: number;
  hasError: boolean;
}

/** Steps merged into at most `bars` bars (sums), so every step has a place on screen. */
export function waterfallBars(timings: readonly StepTiming[], bars: number): WaterfallBar[] {
  const per = Math.max(1, Math.ceil(timings.length / bars));
  const out: WaterfallBar[] = [];
  for (let i = 0; i < timings.length; i += per) {
    const group = timings.slice(i, i + per);
    const first = group[0]!;
    out.push({
      stepId: first.stepId,
      firstStep: first.step,
      lastStep: group[group.length - 1]!.step,
      modelMs: group.reduce((n, t) => n + t.modelMs, 0),
      toolMs: group.reduce((n, t) => n + t.toolMs, 0),
      otherMs: group.reduce((n, t) => n + t.otherMs, 0),
      retries: group.reduce((n, t) => n + t.retries, 0),
      hasError: group.some((t) => t.hasError),
    });
  }
  return out;
}
