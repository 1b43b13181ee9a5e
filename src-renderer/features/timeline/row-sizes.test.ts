import { describe, expect, it } from 'vitest';
import { longRun } from '../../testing/run-script';
import { applyTimelineEvents } from '../../store/timeline/apply-events';
import { createTimeline } from '../../store/timeline/model';
import type { TimelineItem } from '../../store/timeline/types';
import { LearnedHeights, RowSizes, shapeOf } from './row-sizes';

function items(steps: number): readonly TimelineItem[] {
  return applyTimelineEvents(createTimeline(), longRun('r', steps, { isRich: true })).items;
}

describe('row sizes', () => {
  it('keys rows by item id, reading each item once', () => {
    const list = items(3);
    let reads = 0;
    const sizes = new RowSizes(
      list.length,
      (row) => {
        reads++;
        return list[row];
      },
      new LearnedHeights(),
    );
    expect(sizes.key(2)).toBe(list[2]!.id);
    expect(sizes.key(2)).toBe(list[2]!.id);
    sizes.estimate(2);
    sizes.estimate(2);
    // one read for the key and the shape: then the arrays answer
    expect(reads).toBe(1);
    expect(sizes.key(list.length + 5)).toBe(-(list.length + 5));
  });

  it('takes over what the previous list read for items that did not change', () => {
    let gets = 0;
    const counted = items(3).map(
      (item) =>
        new Proxy(item, {
          get(target, property, receiver) {
            gets++;
            return Reflect.get(target, property, receiver) as unknown;
          },
        }),
    );
    const learned = new LearnedHeights();
    const first = new RowSizes(counted.length, (row) => counted[row], learned);
    for (let row = 0; row < counted.length; row++) first.estimate(row);
    const readFirst = gets;
    expect(readFirst).toBeGreaterThan(0);
    // the next slice: the same items and one that changed (a new object)
    const changed = { ...items(3)[1]!, id: 999 };
    const next = [counted[0]!, changed, ...counted.slice(2)];
    const second = new RowSizes(next.length, (row) => next[row], learned, first);
    gets = 0;
    for (let row = 0; row < next.length; row++) second.estimate(row);
    expect(gets).toBe(0);
    expect(second.key(1)).toBe(999);
    expect(second.key(0)).toBe(counted[0]!.id);
  });

  it('estimates a row from the heights measured for rows of its shape', () => {
    const list = items(4);
    const learned = new LearnedHeights();
    const sizes = new RowSizes(list.length, (row) => list[row], learned);
    const replies = list
      .map((item, row) => ({ item, row }))
      .filter(({ item }) => item.kind === 'message' && item.role === 'assistant');
    const [first, second] = replies;
    expect(shapeOf(first!.item)).toBe(shapeOf(second!.item));
    const guess = sizes.estimate(second!.row);
    sizes.learn(first!.row, 219, 900);
    expect(guess).not.toBe(219);
    expect(sizes.estimate(second!.row)).toBe(219);
    // a step header has another shape: not taught by a reply
    const step = list.findIndex((item) => item.kind === 'step');
    expect(sizes.estimate(step)).not.toBe(219);
  });

  it('falls back to the kind, and forgets what it learned when the width changes', () => {
    const learned = new LearnedHeights();
    const list = items(2);
    const sizes = new RowSizes(list.length, (row) => list[row], learned);
    const tool = list.findIndex((item) => item.kind === 'tool');
    sizes.learn(tool, 130, 900);
    sizes.learn(tool, 140, 900);
    expect(sizes.estimate(tool)).toBe(135);
    // another tool call with a much longer output: an unseen shape of a known kind
    const other = { ...(list[tool] as Extract<TimelineItem, { kind: 'tool' }>) };
    other.output = 'x'.repeat(5000);
    const withOther = new RowSizes(1, () => other, learned);
    expect(withOther.estimate(0)).toBe(135);
    sizes.learn(tool, 200, 600);
    expect(sizes.estimate(tool)).toBe(200);
  });
});
