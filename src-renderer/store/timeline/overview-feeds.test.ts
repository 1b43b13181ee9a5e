/**
 * Issue 27: the overview strips follow the timeline's change. Random runs (with errors,
 * duplicates, stuck markers, dropped memory and debugger edits of earlier messages) cut
 * into random slices: after every slice the minimap's marks and the waterfall's bars
 * equal the ones made from the whole list, and the slice read only its new and replaced
 * rows, made only the changed steps' timings and summed only the bars from there on.
 */
import { describe, expect, it } from 'vitest';
import { randomRun, randomSlices } from '../../testing/random-runs';
import { applyTimelineEvents } from './apply-events';
import { MinimapFeed, type MarkedRowsChange } from './minimap-feed';
import { createTimeline } from './model';
import { minimapMarks, stepTimings, waterfallBars, type StepTiming } from './overview';
import { StepTimingsFeed } from './step-timings-feed';
import type { TimelineItem, TimelineModel } from './types';

/** The rows' change as use-row-index.ts passes it when no filter is on. */
function rowsChangeOf(model: TimelineModel): MarkedRowsChange {
  const change = model.change;
  return change
    ? {
        from: change.from,
        to: model.version,
        appendedFrom: change.appendedFrom,
        replaced: change.replaced,
      }
    : { from: NaN, to: model.version, appendedFrom: -1, replaced: [] };
}

/** `itemAt` over the model's items, counting its calls. */
function countedItemAt(items: readonly TimelineItem[], reads: { n: number }) {
  return (row: number) => {
    reads.n++;
    return items[row];
  };
}

describe('the minimap follows the change (issue 27)', () => {
  it('gives the whole-list marks after every slice, reading only new and replaced rows', () => {
    let edits = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const events = randomRun(seed, true);
      const feed = new MinimapFeed();
      const reads = { n: 0 };
      let model: TimelineModel = createTimeline();
      feed.update(0, countedItemAt(model.items, reads), rowsChangeOf(model));
      expect(feed.marks(200)).toEqual([]);
      for (const slice of randomSlices(events, seed)) {
        const previous = model;
        model = applyTimelineEvents(previous, slice);
        const change = model.change!;
        reads.n = 0;
        feed.update(model.items.length, countedItemAt(model.items, reads), rowsChangeOf(model));
        const marks200 = feed.marks(200);
        const marks7 = feed.marks(7);
        // the new rows and the replaced ones, once each; bucketing reads no row
        expect(reads.n, `seed ${seed}`).toBe(
          model.items.length - change.appendedFrom + new Set(change.replaced).size,
        );
        const itemAt = (row: number) => model.items[row];
        expect(marks200, `seed ${seed}`).toEqual(minimapMarks(model.items.length, itemAt, 200));
        expect(marks7, `seed ${seed}`).toEqual(minimapMarks(model.items.length, itemAt, 7));
      }
      edits += feed.marks(200).filter((m) => m.kind === 'edit').length;
    }
    // the runs do edit earlier rows (a replaced row gains a mark)
    expect(edits).toBeGreaterThan(0);
  });

  it('reads a list without a change (a filter) or one that does not follow whole, when drawn', () => {
    const events = randomRun(7, true);
    const model = applyTimelineEvents(createTimeline(), events);
    const feed = new MinimapFeed();
    const reads = { n: 0 };
    // every other row, as a filter would leave them
    const rows = model.items.map((_, p) => p).filter((p) => p % 2 === 0);
    const filtered = (row: number) => {
      reads.n++;
      return model.items[rows[row]!];
    };
    feed.update(rows.length, filtered);
    expect(reads.n).toBe(0);
    expect(feed.marks(50)).toEqual(minimapMarks(rows.length, filtered, 50));
    expect(reads.n).toBe(rows.length * 2);

    // the unfiltered rows with a change from some other list: read whole
    reads.n = 0;
    const other = applyTimelineEvents(
      applyTimelineEvents(createTimeline(), events.slice(0, 100)),
      events.slice(100),
    );
    feed.update(other.items.length, countedItemAt(other.items, reads), rowsChangeOf(other));
    const marks = feed.marks(50);
    expect(reads.n).toBe(other.items.length);
    expect(marks).toEqual(minimapMarks(other.items.length, (row) => other.items[row], 50));
  });
});

describe('the waterfall follows the change (issue 27)', () => {
  it('gives the whole-run bars after every slice, making only what changed', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const events = randomRun(seed, true);
      // 4 bars: the random runs' 5 to 45 steps are merged, and the merge grows as they come
      const feed = new StepTimingsFeed();
      let model: TimelineModel = createTimeline();
      feed.update(model);
      let before: StepTiming[] = [];
      let bars = feed.waterfallBars(4);
      for (const slice of randomSlices(events, seed)) {
        const previous = model;
        model = applyTimelineEvents(previous, slice);
        const change = model.change!;
        feed.update(model);
        const made = feed.timingsMade;
        const timings = [...feed.timings()];
        const wholeTimings = stepTimings(model.items);
        expect(timings, `seed ${seed}`).toEqual(wholeTimings);
        // a timing is made for a step only when one of the slice's items is its own
        const touched = model.items.length - change.appendedFrom + change.replaced.length;
        expect(feed.timingsMade - made).toBeLessThanOrEqual(touched);
        let firstChanged = timings.length;
        for (let i = 0; i < timings.length; i++) {
          if (timings[i] === before[i]) continue;
          firstChanged = i;
          break;
        }
        const per = Math.max(1, Math.ceil(before.length / 4));
        const now = feed.waterfallBars(4);
        expect(now, `seed ${seed}`).toEqual(waterfallBars(wholeTimings, 4));
        if (per === Math.max(1, Math.ceil(timings.length / 4))) {
          // the bars before the first changed step are the ones made before
          for (let b = 0; b < Math.floor(firstChanged / per); b++) expect(now[b]).toBe(bars[b]);
        }
        before = timings;
        bars = now;
      }
    }
  });
});
