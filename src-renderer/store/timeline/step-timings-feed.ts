/**
 * The waterfall's per-step timings (`stepTimings` in overview.ts) kept up to date model
 * by model: a model made from the one fed last (its `change`) costs its new and replaced
 * items, not the run. `stepTimings` scanned every item of the run, twice a second while
 * a 100,000-step run loaded (300,000 items a scan: a long task each time).
 * The timings and the bars follow too: only a step whose header or sums changed gets a
 * new `StepTiming`, and only the bars from the first such step on are summed again (all
 * of them when a bar comes to merge more steps), so a draw costs what changed, not the run.
 */
import { barsFrom, stepsPerBar, type StepTiming, type WaterfallBar } from './overview';
import { totalWait } from './step-waits';
import type { StepItem, TimelineItem, TimelineModel } from './types';

/** What a step's timing is made of before the parts are split (see `stepTimings`). */
interface StepParts {
  header: StepItem;
  /** the durations of its tool cards */
  toolSum: number;
  retries: number;
}

export class StepTimingsFeed {
  private version = NaN;
  private steps: StepParts[] = [];
  /** step header id -> index in `steps` */
  private readonly byStep = new Map<number, number>();
  /** per item position: what the item added to its step (a tool's duration, a retry) */
  private readonly added: { step: number; toolMs: number; retries: number }[] = [];
  /** items read since the last full scan or the start (tests count them) */
  itemsRead = 0;
  /** `StepTiming`s made (tests count them) */
  timingsMade = 0;
  /** per step, its timing as last made (`timings`) */
  private made: StepTiming[] = [];
  /** steps whose header or sums changed since `timings` last made theirs */
  private readonly dirty = new Set<number>();
  private bars: WaterfallBar[] = [];
  private barPer = 0;
  /** the first step whose timing changed since the bars were made */
  private barsDirtyFrom = 0;

  /** Brings the timings to this model; true when they may have changed. */
  update(model: TimelineModel): boolean {
    if (model.version === this.version) return false;
    const change = model.change;
    if (change && change.from === this.version && change.appendedFrom === this.added.length) {
      for (const position of change.replaced) this.replaceAt(position, model.items[position]!);
      for (let p = change.appendedFrom; p < model.items.length; p++) this.add(model.items[p]!);
    } else {
      this.steps = [];
      this.byStep.clear();
      this.added.length = 0;
      this.made = [];
      this.dirty.clear();
      this.barsDirtyFrom = 0;
      for (const item of model.items) this.add(item);
    }
    this.version = model.version;
    return true;
  }

  /** The same as `stepTimings(items)` of the model fed last (kept: do not change it). */
  timings(): readonly StepTiming[] {
    for (const index of this.dirty) {
      this.made[index] = this.timingOf(this.steps[index]!);
      this.timingsMade++;
      this.barsDirtyFrom = Math.min(this.barsDirtyFrom, index);
    }
    this.dirty.clear();
    return this.made;
  }

  /** The same as `waterfallBars(timings(), maxBars)`; bars of unchanged steps are kept. */
  waterfallBars(maxBars: number): WaterfallBar[] {
    const timings = this.timings();
    const per = stepsPerBar(timings.length, maxBars);
    const first = per === this.barPer ? Math.floor(this.barsDirtyFrom / per) : 0;
    const bars = this.bars.slice(0, first);
    barsFrom(timings, per, first, bars);
    this.bars = bars;
    this.barPer = per;
    this.barsDirtyFrom = timings.length;
    return bars;
  }

  private timingOf({ header, toolSum, retries }: StepParts): StepTiming {
    const w = header.waits;
    const modelMs = Math.max(0, (header.modelMs ?? 0) - (w?.inModelMs ?? 0));
    const toolMs = Math.max(0, toolSum - (w?.inToolsMs ?? 0));
    const waitMs = w ? totalWait(w) : 0;
    return {
      stepId: header.id,
      step: header.step,
      agent: header.agent,
      modelMs,
      toolMs,
      waitMs,
      queuedMs: w?.queuedMs ?? 0,
      backoffMs: w?.backoffMs ?? 0,
      pausedMs: w?.pausedMs ?? 0,
      sandboxMs: w?.sandboxMs ?? 0,
      loopMs: Math.max(0, (header.durationMs ?? 0) - modelMs - toolMs - waitMs),
      retries,
      hasError: header.hasError,
    };
  }

  private add(item: TimelineItem): void {
    this.itemsRead++;
    if (item.kind === 'step') {
      this.byStep.set(item.id, this.steps.length);
      this.dirty.add(this.steps.length);
      this.steps.push({ header: item, toolSum: 0, retries: 0 });
      this.added.push({ step: -1, toolMs: 0, retries: 0 });
      return;
    }
    const added = this.contribution(item);
    this.added.push(added);
    const parts = this.steps[added.step];
    if (!parts) return;
    this.dirty.add(added.step);
    parts.toolSum += added.toolMs;
    parts.retries += added.retries;
  }

  private replaceAt(position: number, item: TimelineItem): void {
    this.itemsRead++;
    const before = this.added[position];
    if (!before) return;
    if (item.kind === 'step') {
      const index = this.byStep.get(item.id);
      if (index === undefined) return;
      this.steps[index]!.header = item;
      this.dirty.add(index);
      return;
    }
    const old = this.steps[before.step];
    if (old) {
      old.toolSum -= before.toolMs;
      old.retries -= before.retries;
      this.dirty.add(before.step);
    }
    const now = this.contribution(item);
    this.added[position] = now;
    const parts = this.steps[now.step];
    if (!parts) return;
    this.dirty.add(now.step);
    parts.toolSum += now.toolMs;
    parts.retries += now.retries;
  }

  /** Only tool cards and retry markers add to a step (model time and waits are on its header). */
  private contribution(item: TimelineItem): { step: number; toolMs: number; retries: number } {
    const isTool = item.kind === 'tool';
    const isRetry = item.kind === 'marker' && item.marker === 'retry';
    if (!isTool && !isRetry) return { step: -1, toolMs: 0, retries: 0 };
    return {
      step: this.byStep.get(item.stepId) ?? -1,
      toolMs: isTool ? (item.durationMs ?? 0) : 0,
      retries: isRetry ? 1 : 0,
    };
  }
}
