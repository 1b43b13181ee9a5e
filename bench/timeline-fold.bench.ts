/**
 * A long run's history folded into the timeline as the page does it (issue 27: a
 * 100,000-step run took 69 s to fold in the page), without the browser: the bridge's
 * slices (3,000 events), each folded into the store (`applyEventBatch`), then what the
 * timeline derives from each new model: the row window's keys, shapes and offsets
 * (row-sizes.ts and row-offsets.ts, as row-window.ts's `setRows` uses them; the window
 * itself needs a DOM) and the waterfall's step timings (step-timings-feed.ts). Printed with
 * CPU and wall time and the load average.
 *
 * Baseline in the same run: the same slices with those two derived from the whole run
 * at each slice, as before issue 27's change (the row window given no change, so it
 * reads every row again; `stepTimings` over every item). The waterfall was throttled to
 * twice a second in the page; here it runs once every 10 slices in both paths.
 * WORKBENCH_BENCH_FOLD_STEPS sets the long run (default 100,000 steps; the 10,000-step
 * run is always measured).
 */
import { loadavg } from 'node:os';
import type { RunEvent } from '../src-shared/events';
import { RowOffsets } from '../src-renderer/features/timeline/row-offsets';
import { LearnedHeights, RowSizes } from '../src-renderer/features/timeline/row-sizes';
import { applyEventBatch, emptyRunsData } from '../src-renderer/store/run-events';
import { stepTimings } from '../src-renderer/store/timeline/overview';
import { StepTimingsFeed } from '../src-renderer/store/timeline/step-timings-feed';
import { longRunInChunks } from '../src-renderer/testing/run-script';
import { report, type BenchResult, type Figure } from './report';

const SLICE = 3_000;
const WATERFALL_EVERY = 10;

interface Folded {
  wallMs: number;
  cpuMs: number;
  foldMs: number;
  derivedMs: number;
  /** the slowest slice's fold plus derived work (one task in the page) */
  longestSliceMs: number;
  items: number;
}

function fold(events: readonly RunEvent[], isIncremental: boolean): Folded {
  let data = emptyRunsData;
  const learned = new LearnedHeights();
  let sizes = new RowSizes(0, () => undefined, learned);
  let offsets = new RowOffsets(0, () => 0);
  const sizeOf = (row: number) => {
    sizes.key(row); // read as the window reads it: a measured height is looked up by key
    return sizes.estimate(row);
  };
  const feed = new StepTimingsFeed();
  let foldMs = 0;
  let derivedMs = 0;
  let longestSliceMs = 0;
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  for (let at = 0, slice = 0; at < events.length; at += SLICE, slice++) {
    const t0 = performance.now();
    data = applyEventBatch(data, events.slice(at, at + SLICE));
    const t1 = performance.now();
    const timeline = data.runs[events[0]!.runId]!.timeline;
    const items = timeline.items;
    const itemAt = (row: number) => items[row];
    const change = timeline.change;
    if (isIncremental && change && change.appendedFrom === sizes.count) {
      // row-window.ts setRows with the model's change
      const before = sizes.count;
      sizes.extend(items.length, itemAt, change.replaced);
      for (const row of change.replaced) offsets.setSize(row, sizeOf(row));
      offsets.append(items.length - before, sizeOf);
      feed.update(timeline);
      if (slice % WATERFALL_EVERY === 0) feed.timings();
    } else {
      // setRows without one: every row's key and shape, the offsets built again
      sizes = new RowSizes(items.length, itemAt, learned, sizes);
      offsets = new RowOffsets(items.length, sizeOf);
      if (isIncremental) feed.update(timeline);
      else if (slice % WATERFALL_EVERY === 0) stepTimings(items);
    }
    const t2 = performance.now();
    foldMs += t1 - t0;
    derivedMs += t2 - t1;
    longestSliceMs = Math.max(longestSliceMs, t2 - t0);
  }
  const cpu = process.cpuUsage(cpuStart);
  const items = data.runs[events[0]!.runId]!.timeline.items.length;
  return {
    wallMs: performance.now() - started,
    cpuMs: (cpu.user + cpu.system) / 1000,
    foldMs,
    derivedMs,
    longestSliceMs,
    items,
  };
}

function eventsOf(steps: number): RunEvent[] {
  const events: RunEvent[] = [];
  longRunInChunks(`fold-${steps}`, steps, { startTs: 0, isRich: true }, (chunk) => {
    for (const event of chunk) events.push(event);
  });
  return events;
}

function figures(steps: number, events: number, now: Folded, before: Folded): Figure[] {
  const label = `${steps.toLocaleString('en')} steps`;
  return [
    {
      label: `fold + rows + waterfall, ${label}`,
      value: now.wallMs,
      unit: 'ms',
      note: `CPU ${now.cpuMs.toFixed(0)} ms; ${events.toLocaleString('en')} events, ${now.items.toLocaleString('en')} items; whole-run passes per slice (before): ${before.wallMs.toFixed(0)} ms wall, ${before.cpuMs.toFixed(0)} ms CPU`,
    },
    {
      label: `  of which the fold, ${label}`,
      value: now.foldMs,
      unit: 'ms',
      note: `before: ${before.foldMs.toFixed(0)} ms`,
    },
    {
      label: `  of which rows + waterfall, ${label}`,
      value: now.derivedMs,
      unit: 'ms',
      note: `before: ${before.derivedMs.toFixed(0)} ms (${(before.derivedMs / Math.max(now.derivedMs, 0.001)).toFixed(1)}×)`,
    },
    {
      label: `  longest slice, ${label}`,
      value: now.longestSliceMs,
      unit: 'ms',
      note: `before: ${before.longestSliceMs.toFixed(0)} ms`,
    },
  ];
}

export async function timelineFoldBench(): Promise<BenchResult> {
  const loadAtStart = loadavg()[0]!.toFixed(2);
  const long = Number(process.env['WORKBENCH_BENCH_FOLD_STEPS'] ?? 100_000);
  const out: Figure[] = [];
  fold(eventsOf(1_000), true); // warm-up: compile the fold's code
  fold(eventsOf(1_000), false);
  for (const steps of [10_000, long]) {
    const events = eventsOf(steps);
    const before = fold(events, false);
    const now = fold(events, true);
    out.push(...figures(steps, events.length, now, before));
  }
  const loadAtEnd = loadavg()[0]!.toFixed(2);
  return report(
    `timeline: a long run folded slice by slice, as the page loads it (load ${loadAtStart} → ${loadAtEnd})`,
    out,
  );
}
