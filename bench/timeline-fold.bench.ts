/**
 * A long run's history folded into the timeline as the page does it (issue 27: a
 * 100,000-step run took 69 s to fold in the page), without the browser: the bridge's
 * slices (3,000 events), each folded into the store (`applyEventBatch`), then what the
 * timeline derives from each new model: the row window's keys, shapes and offsets
 * (row-sizes.ts and row-offsets.ts, as row-window.ts's `setRows` uses them; the window
 * itself needs a DOM), the waterfall's step timings and bars (step-timings-feed.ts) and
 * the minimap's marks (minimap-feed.ts). Printed with CPU and wall time and the load average.
 *
 * Baseline in the same run: the same slices with those two derived from the whole run
 * at each slice, as before issue 27's change (the row window given no change, so it
 * reads every row again; `stepTimings` over every item). The waterfall was throttled to
 * twice a second in the page; here it runs once every 10 slices in both paths.
 * A third path, the strips' own baseline: the rows and the step timings' feed as now, but
 * each draw scanning every row for the minimap (`minimapMarks`) and making every step's
 * timing and every bar again (`waterfallBars` over a new object per step), as before the
 * strips followed the change; its strips' time is printed against the incremental one.
 * WORKBENCH_BENCH_FOLD_STEPS sets the long run (default 100,000 steps; the 10,000-step
 * run is always measured).
 */
import { loadavg } from 'node:os';
import type { RunEvent } from '../src-shared/events';
import { RowOffsets } from '../src-renderer/features/timeline/row-offsets';
import { LearnedHeights, RowSizes } from '../src-renderer/features/timeline/row-sizes';
import { applyEventBatch, emptyRunsData } from '../src-renderer/store/run-events';
import { minimapMarks, stepTimings, waterfallBars } from '../src-renderer/store/timeline/overview';
import { MinimapFeed } from '../src-renderer/store/timeline/minimap-feed';
import { StepTimingsFeed } from '../src-renderer/store/timeline/step-timings-feed';
import { longRunInChunks } from '../src-renderer/testing/run-script';
import { report, type BenchResult, type Figure } from './report';

const SLICE = 3_000;
const WATERFALL_EVERY = 10;
const MINIMAP_BUCKETS = 200;
const MAX_BARS = 240;

/** before: every derived view whole; strips-whole: rows incremental, strips scanned whole */
type Mode = 'before' | 'strips-whole' | 'now';

interface Folded {
  wallMs: number;
  cpuMs: number;
  foldMs: number;
  derivedMs: number;
  /** of `derivedMs`: the minimap and the waterfall (fed per slice, drawn every 10) */
  stripsMs: number;
  /** the slowest slice's fold plus derived work (one task in the page) */
  longestSliceMs: number;
  items: number;
}

function fold(events: readonly RunEvent[], mode: Mode): Folded {
  const isIncremental = mode !== 'before';
  let data = emptyRunsData;
  const learned = new LearnedHeights();
  let sizes = new RowSizes(0, () => undefined, learned);
  let offsets = new RowOffsets(0, () => 0);
  const sizeOf = (row: number) => {
    sizes.key(row); // read as the window reads it: a measured height is looked up by key
    return sizes.estimate(row);
  };
  const feed = new StepTimingsFeed();
  const minimap = new MinimapFeed();
  let stripsMs = 0;
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
      const s0 = performance.now();
      feed.update(timeline);
      const isDrawn = slice % WATERFALL_EVERY === 0;
      if (mode === 'now') {
        const rowsChange = { ...change, to: timeline.version };
        minimap.update(items.length, itemAt, rowsChange);
        if (isDrawn) {
          minimap.marks(MINIMAP_BUCKETS);
          feed.waterfallBars(MAX_BARS);
        }
      } else if (isDrawn) {
        minimapMarks(items.length, itemAt, MINIMAP_BUCKETS);
        // the feed's old `timings()`: a new object for every step at every draw
        waterfallBars(
          feed.timings().map((t) => ({ ...t })),
          MAX_BARS,
        );
      }
      stripsMs += performance.now() - s0;
    } else {
      // setRows without one: every row's key and shape, the offsets built again
      sizes = new RowSizes(items.length, itemAt, learned, sizes);
      offsets = new RowOffsets(items.length, sizeOf);
      const s0 = performance.now();
      if (isIncremental) {
        feed.update(timeline);
        minimap.update(items.length, itemAt);
      } else if (slice % WATERFALL_EVERY === 0) {
        minimapMarks(items.length, itemAt, MINIMAP_BUCKETS);
        waterfallBars(stepTimings(items), MAX_BARS);
      }
      stripsMs += performance.now() - s0;
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
    stripsMs,
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

function figures(
  steps: number,
  events: number,
  now: Folded,
  before: Folded,
  stripsWhole: Folded,
): Figure[] {
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
      label: `  of which minimap + waterfall, ${label}`,
      value: now.stripsMs,
      unit: 'ms',
      note: `scanned whole at each draw (rows as now): ${stripsWhole.stripsMs.toFixed(0)} ms (${(stripsWhole.stripsMs / Math.max(now.stripsMs, 0.001)).toFixed(1)}×), longest slice then ${stripsWhole.longestSliceMs.toFixed(0)} ms, all ${stripsWhole.wallMs.toFixed(0)} ms wall`,
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
  fold(eventsOf(1_000), 'now'); // warm-up: compile the fold's code
  fold(eventsOf(1_000), 'before');
  fold(eventsOf(1_000), 'strips-whole');
  for (const steps of [10_000, long]) {
    const events = eventsOf(steps);
    const before = fold(events, 'before');
    const stripsWhole = fold(events, 'strips-whole');
    const now = fold(events, 'now');
    out.push(...figures(steps, events.length, now, before, stripsWhole));
  }
  const loadAtEnd = loadavg()[0]!.toFixed(2);
  return report(
    `timeline: a long run folded slice by slice, as the page loads it (load ${loadAtStart} → ${loadAtEnd})`,
    out,
  );
}
