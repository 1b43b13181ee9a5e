/**
 * Issue 27: a run folded slice by slice (as the bridge loads a history, as pushes
 * arrive) gives the same timeline as the whole run folded at once, whatever the slices;
 * each model says exactly which items changed since the one it was made from, and what
 * follows a slice (the waterfall's step timings) reads only those items.
 * Property-style: random runs (streams, retries, errors, duplicates, stuck markers,
 * dropped memory) cut at random places.
 */
import { describe, expect, it } from 'vitest';
import { randomRun, randomSlices } from '../../testing/random-runs';
import { applyTimelineEvents } from './apply-events';
import { createTimeline } from './model';
import { stepTimings } from './overview';
import { StepTimingsFeed } from './step-timings-feed';
import type { TimelineModel } from './types';

describe('folding slice by slice (issue 27)', () => {
  it('gives the whole fold, says what changed, and the step timings follow from the change alone', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const events = randomRun(seed);
      const whole = applyTimelineEvents(createTimeline(), events);
      const feed = new StepTimingsFeed();
      let model: TimelineModel = createTimeline();
      feed.update(model);
      for (const slice of randomSlices(events, seed)) {
        const previous = model;
        model = applyTimelineEvents(previous, slice);
        const change = model.change!;
        expect(change.from, `seed ${seed}`).toBe(previous.version);
        expect(change.appendedFrom).toBe(previous.items.length);
        const replaced = new Set(change.replaced);
        for (let p = 0; p < previous.items.length; p++) {
          // an item the change does not name is the very same object
          if (!replaced.has(p)) expect(model.items[p]).toBe(previous.items[p]);
          else expect(model.items[p]).not.toBe(previous.items[p]);
        }
        feed.itemsRead = 0;
        feed.update(model);
        expect(feed.itemsRead).toBe(model.items.length - previous.items.length + replaced.size);
        expect(feed.timings(), `seed ${seed}`).toEqual(stepTimings(model.items));
      }
      expect(model.items, `seed ${seed}`).toEqual(whole.items);
      expect(model.eventCount).toBe(whole.eventCount);
      expect(model.lastSeq).toBe(whole.lastSeq);
      expect(model.toolErrors).toBe(whole.toolErrors);
    }
  });

  it('events already folded (a snapshot overlapping pushes) change nothing', () => {
    const events = randomRun(99);
    const model = applyTimelineEvents(createTimeline(), events);
    expect(applyTimelineEvents(model, events.slice(-20))).toBe(model);
  });

  it('a model that is not made from the one fed last is read whole', () => {
    const events = randomRun(5);
    const feed = new StepTimingsFeed();
    const half = applyTimelineEvents(createTimeline(), events.slice(0, 200));
    feed.update(half);
    // a model made from another (a reloaded run): its change does not start at `half`
    const other = applyTimelineEvents(
      applyTimelineEvents(createTimeline(), events.slice(0, 100)),
      events.slice(100),
    );
    feed.itemsRead = 0;
    feed.update(other);
    expect(feed.itemsRead).toBe(other.items.length);
    expect(feed.timings()).toEqual(stepTimings(other.items));
  });
});
