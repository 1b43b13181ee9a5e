import { describe, expect, it } from 'vitest';
import { RunScript } from '../../testing/run-script';
import { applyTimelineEvents } from './apply-events';
import { createTimeline } from './model';
import { minimapMarks, stepTimings, waterfallBars } from './overview';

function run() {
  const s = new RunScript('r').start('t');
  s.addStep({ content: 'same', calls: [{ name: 'bash', args: { c: 1 }, durationMs: 40 }] });
  s.endStep(500);
  s.addStep({ content: 'other', calls: [{ name: 'bash', args: { c: 2 }, error: 'boom' }] });
  s.endStep(100);
  s.addStep({ content: 'same', calls: [{ name: 'bash', args: { c: 1 } }] });
  s.stuck('content', [1]);
  s.endStep(50);
  s.finish();
  return applyTimelineEvents(createTimeline(), s.events);
}

describe('overview', () => {
  it('marks errors, stuck detections and duplicates where their rows are', () => {
    const { items } = run();
    const marks = minimapMarks(items.length, (r) => items[r], 1000);
    const kinds = marks.map((m) => m.kind).sort();
    expect(kinds).toEqual(['duplicate', 'error', 'stuck']);
    const error = marks.find((m) => m.kind === 'error')!;
    const row = items.findIndex((i) => i.id === error.itemId);
    expect(items[row]).toMatchObject({ kind: 'tool', status: 'error' });
    expect(error.bucket).toBe(Math.floor((row / items.length) * 1000));
    // few buckets: marks of a kind merge and count
    const merged = minimapMarks(items.length, (r) => items[r], 1);
    expect(merged.map((m) => m.count).reduce((a, b) => a + b)).toBe(3);
  });

  it('splits each step into model, tool and other time, and merges steps into bars', () => {
    const timings = stepTimings(run().items);
    expect(timings.map((t) => t.step)).toEqual([1, 2, 3]);
    expect(timings[0]!.toolMs).toBe(40);
    expect(timings[0]!.modelMs + timings[0]!.toolMs + timings[0]!.otherMs).toBe(500);
    expect(timings[1]!.hasError).toBe(true);
    const bars = waterfallBars(timings, 2);
    expect(bars.map((b) => [b.firstStep, b.lastStep])).toEqual([
      [1, 2],
      [3, 3],
    ]);
    expect(bars[0]!.hasError).toBe(true);
    expect(bars[0]!.stepId).toBe(timings[0]!.stepId);
  });
});
