/**
 * Issue 27: a run folded slice by slice (as the bridge loads a history, as pushes
 * arrive) gives the same timeline as the whole run folded at once, whatever the slices;
 * each model says exactly which items changed since the one it was made from, and what
 * follows a slice (the waterfall's step timings) reads only those items.
 * Property-style: random runs (streams, retries, errors, duplicates, stuck markers,
 * dropped memory) cut at random places.
 */
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import { RunScript, type ScriptedStep } from '../../testing/run-script';
import { applyTimelineEvents } from './apply-events';
import { createTimeline } from './model';
import { stepTimings } from './overview';
import { StepTimingsFeed } from './step-timings-feed';
import type { TimelineModel } from './types';

function randomOf(seed: number) {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return { next, int: (n: number) => Math.floor(next() * n), chance: (p: number) => next() < p };
}

function randomRun(seed: number): RunEvent[] {
  const r = randomOf(seed);
  const script = new RunScript(`run-${seed}`, 'manus', { maxSteps: 100 }).start('a random task');
  const steps = 5 + r.int(40);
  for (let i = 1; i <= steps; i++) {
    const calls = Array.from({ length: r.int(3) }, (_, c) => ({
      name: r.chance(0.5) ? 'bash' : 'python_execute',
      args: { command: `cmd ${i} ${c}` },
      output: `out ${i}`.repeat(1 + r.int(30)),
      durationMs: r.int(500),
      ...(r.chance(0.2) ? { error: `failed ${i}`, exitCode: 1 } : { exitCode: 0 }),
    }));
    const spec: ScriptedStep = {
      content: r.chance(0.15) ? 'the same reply again' : `reply ${i} `.repeat(1 + r.int(20)),
      calls,
      modelMs: r.int(300),
      ...(r.chance(0.3) ? { streamChunk: 1 + r.int(12) } : {}),
      ...(r.chance(0.2) ? { retryDelays: [r.int(100)] } : {}),
      ...(r.chance(0.2) ? { queuedMs: r.int(50) } : {}),
      ...(r.chance(0.2) ? { prompt: 'go on' } : {}),
    };
    script.addStep(spec);
    if (r.chance(0.1)) script.stuck('content', [1]);
    if (r.chance(0.05)) script.truncate([1, 2], 10);
    script.endStep(r.int(900));
  }
  script.finish(r.chance(0.8) ? 'finished' : 'error', 'it broke');
  return script.events;
}

/** The events cut into random slices (single events, whole runs and everything between). */
function randomSlices(events: readonly RunEvent[], seed: number): RunEvent[][] {
  const r = randomOf(seed * 7 + 3);
  const slices: RunEvent[][] = [];
  for (let at = 0; at < events.length;) {
    const size = r.chance(0.2) ? 1 : 1 + r.int(r.chance(0.5) ? 8 : 120);
    slices.push(events.slice(at, at + size));
    at += size;
  }
  return slices;
}

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
