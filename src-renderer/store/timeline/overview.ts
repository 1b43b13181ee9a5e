/**
 * What the run's overview strips show, computed in one pass each: the density minimap
 * (errors, stuck detections, duplicates and edits, by their place among the rows) and
 * the waterfall (per step: model time, tool time, waits by kind, the loop's own time,
 * retries; what each wait is and where it lies: step-waits.ts).
 * Both are bucketed, so a 100,000-step run draws at most a few hundred marks.
 */
import type { TimelineItem } from './types';
import { isError } from './visible-rows';
import { totalWait, type WaitKind } from './step-waits';

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

/** A step's or a bar's time, split so the parts add up to the step's duration. */
export interface TimeSplit extends Record<WaitKind, number> {
  /** the model's own time: its calls' durations less the waits inside them */
  modelMs: number;
  /** the tools' own time: their durations less the waits inside them */
  toolMs: number;
  /** every wait: queued for the model, retry backoff, paused, queued for a sandbox */
  waitMs: number;
  /** the rest of the step: the loop itself (memory, events, the agent's own work) */
  loopMs: number;
  retries: number;
}

export interface StepTiming extends TimeSplit {
  stepId: number;
  step: number;
  agent: string;
  hasError: boolean;
}

/** Per step, in order: where its time went. One pass over the items, one over the steps. */
export function stepTimings(items: readonly TimelineItem[]): StepTiming[] {
  const timings: StepTiming[] = [];
  // a flow interleaves agents: an item finds its step's timing by the header's id
  const byStep = new Map<number, StepTiming>();
  let last: StepTiming | undefined;
  for (const item of items) {
    if (item.kind === 'step') {
      const w = item.waits;
      // the waits inside the model's and the tools' recorded times come off those times
      // (the tools' as a debt their cards pay off below)
      const timing: StepTiming = {
        stepId: item.id,
        step: item.step,
        agent: item.agent,
        modelMs: Math.max(0, (item.modelMs ?? 0) - (w?.inModelMs ?? 0)),
        toolMs: -(w?.inToolsMs ?? 0),
        waitMs: w ? totalWait(w) : 0,
        queuedMs: w?.queuedMs ?? 0,
        backoffMs: w?.backoffMs ?? 0,
        pausedMs: w?.pausedMs ?? 0,
        sandboxMs: w?.sandboxMs ?? 0,
        // the whole step for now: the rest comes off below
        loopMs: item.durationMs ?? 0,
        retries: 0,
        hasError: item.hasError,
      };
      byStep.set(item.id, timing);
      timings.push(timing);
      continue;
    }
    // only tool cards and retry markers add to a step (model time and waits are on its
    // header): the rest costs a glance, not a lookup
    const isTool = item.kind === 'tool';
    if (!isTool && !(item.kind === 'marker' && item.marker === 'retry')) continue;
    if (last?.stepId !== item.stepId) last = byStep.get(item.stepId);
    if (!last) continue;
    if (isTool) last.toolMs += item.durationMs ?? 0;
    else last.retries += 1;
  }
  for (const t of timings) {
    t.toolMs = Math.max(0, t.toolMs);
    t.loopMs = Math.max(0, t.loopMs - t.modelMs - t.toolMs - t.waitMs);
  }
  return timings;
}

export interface WaterfallBar extends TimeSplit {
  /** the first step in the bar (a click jumps to it) */
  stepId: number;
  firstStep: number;
  lastStep: number;
  hasError: boolean;
}

/** Steps merged into at most `bars` bars (sums), so every step has a place on screen. */
export function waterfallBars(timings: readonly StepTiming[], bars: number): WaterfallBar[] {
  const out: WaterfallBar[] = [];
  barsFrom(timings, stepsPerBar(timings.length, bars), 0, out);
  return out;
}

/** How many steps a bar merges when `steps` steps have at most `bars` bars. */
export function stepsPerBar(steps: number, bars: number): number {
  return Math.max(1, Math.ceil(steps / bars));
}

/**
 * Appends to `out` the bars from the bar at `first` on, `per` steps each: a bar is summed
 * in step order, so a bar made again from the same timings is the same to the last bit.
 */
export function barsFrom(
  timings: readonly StepTiming[],
  per: number,
  first: number,
  out: WaterfallBar[],
): void {
  let bar: WaterfallBar | undefined;
  for (let i = first * per; i < timings.length; i++) {
    const t = timings[i]!;
    if (i % per === 0) {
      // a literal, not a spread: the sums below stay fast property writes
      bar = {
        stepId: t.stepId,
        firstStep: t.step,
        lastStep: t.step,
        modelMs: t.modelMs,
        toolMs: t.toolMs,
        waitMs: t.waitMs,
        queuedMs: t.queuedMs,
        backoffMs: t.backoffMs,
        pausedMs: t.pausedMs,
        sandboxMs: t.sandboxMs,
        loopMs: t.loopMs,
        retries: t.retries,
        hasError: t.hasError,
      };
      out.push(bar);
      continue;
    }
    bar = bar!;
    bar.lastStep = t.step;
    bar.modelMs += t.modelMs;
    bar.toolMs += t.toolMs;
    bar.waitMs += t.waitMs;
    bar.queuedMs += t.queuedMs;
    bar.backoffMs += t.backoffMs;
    bar.pausedMs += t.pausedMs;
    bar.sandboxMs += t.sandboxMs;
    bar.loopMs += t.loopMs;
    bar.retries += t.retries;
    bar.hasError ||= t.hasError;
  }
}
