import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RowWindowController } from './row-window';
import type { TimelineItem } from '../../store/timeline/types';

/** Rows of one kind: every estimate is the same until something is measured. */
function markerRows(count: number): TimelineItem[] {
  return Array.from(
    { length: count },
    (_, i) =>
      ({
        kind: 'marker',
        id: i + 1,
        marker: 'note',
        text: `row ${i}`,
        tone: 'info',
        agent: 'manus',
        step: 0,
        stepId: 0,
        ts: 0,
      }) as unknown as TimelineItem,
  );
}

/** The ResizeObserver the controller creates, driven by the test. */
class FakeObserver {
  static last: FakeObserver | null = null;
  readonly observed = new Set<Element>();
  constructor(readonly callback: (entries: ResizeObserverEntry[]) => void) {
    FakeObserver.last = this;
  }
  observe(element: Element) {
    this.observed.add(element);
  }
  unobserve(element: Element) {
    this.observed.delete(element);
  }
  disconnect() {
    this.observed.clear();
  }
}

function entry(target: Element, height: number, width = 900): ResizeObserverEntry {
  return {
    target,
    borderBoxSize: [{ blockSize: height, inlineSize: width }],
    contentRect: { height, width },
  } as unknown as ResizeObserverEntry;
}

function rowElement(row: number): HTMLElement {
  const element = document.createElement('div');
  element.dataset['index'] = String(row);
  document.body.append(element);
  return element;
}

function setup(count: number) {
  const list = markerRows(count);
  const renders: boolean[] = [];
  const expanded = new Set<number>();
  const controller = new RowWindowController(2, (sync) => renders.push(sync));
  controller.setRows(count, (row) => list[row]);
  controller.setExpanded(expanded);
  const scroller = document.createElement('div');
  scroller.className = 'timeline'; // the test setup gives it a 2,000 px tall box
  document.body.append(scroller);
  const inner = document.createElement('div');
  controller.attach(scroller);
  controller.holdList(inner);
  const observer = FakeObserver.last!;
  const measure = (pairs: [number, number][]) =>
    observer.callback(pairs.map(([row, height]) => entry(rowElement(row), height)));
  return { controller, scroller, inner, observer, renders, measure, expanded, list };
}

const original = globalThis.ResizeObserver;
beforeEach(() => {
  globalThis.ResizeObserver = FakeObserver as unknown as typeof ResizeObserver;
});
afterEach(() => {
  globalThis.ResizeObserver = original;
  document.body.replaceChildren();
});

describe('row window', () => {
  it('shows the rows in view and a few around them, and writes the list height', () => {
    // the test setup gives a scroller 2,000 px of height; a marker is estimated at 26 px
    const { controller, inner, scroller } = setup(1_000);
    expect(controller.total()).toBe(26_000);
    expect(inner.style.height).toBe('26000px');
    expect(controller.range()).toEqual({ first: 0, last: Math.floor(2_000 / 26) + 2 });
    scroller.scrollTop = 13_000;
    scroller.dispatchEvent(new Event('scroll'));
    const { first, last } = controller.range();
    expect(first).toBe(500 - 2);
    expect(last).toBe(Math.floor(15_000 / 26) + 2);
    expect(controller.offsetOf(first)).toBe(first * 26);
  });

  it('a row measured taller above the view moves the view with it; one below does not', () => {
    const { controller, scroller, measure, renders } = setup(1_000);
    scroller.scrollTop = 2_600; // row 100 at the top
    scroller.dispatchEvent(new Event('scroll'));
    const row151 = rowElement(151);
    controller.measureRow(row151);
    expect(row151.style.transform).toBe(`translateY(${151 * 26}px)`);
    renders.length = 0;
    measure([
      [98, 126], // above the view: 100 px taller
      [150, 226], // in view: 200 px taller, nothing above it moves
    ]);
    expect(scroller.scrollTop).toBe(2_700);
    expect(controller.total()).toBe(26_000 + 300);
    // every row after a measured one moves: its element is placed again at once
    expect(controller.offsetOf(151)).toBe(151 * 26 + 300);
    expect(row151.style.transform).toBe(`translateY(${151 * 26 + 300}px)`);
    // the view now ends at an earlier row: the window changed, rendered before the paint
    expect(renders).toEqual([true]);
  });

  it('places the rows after a measured one without rendering, when the window keeps its rows', () => {
    const { controller, scroller, measure, renders } = setup(1_000);
    scroller.scrollTop = 2_600;
    scroller.dispatchEvent(new Event('scroll'));
    const { last } = controller.range();
    const lastRow = rowElement(last);
    controller.measureRow(lastRow);
    renders.length = 0;
    // a row of the overscan below the view grows: the view shows the same rows
    measure([[last - 1, 36]]);
    expect(controller.range().last).toBe(last);
    expect(lastRow.style.transform).toBe(`translateY(${last * 26 + 10}px)`);
    expect(renders).toEqual([]);
  });

  it('scrolls a row into view and again while the rows around it are measured', () => {
    const { controller, scroller, measure } = setup(1_000);
    controller.scrollToRow(500, 'center');
    expect(scroller.scrollTop).toBe(500 * 26 + 13 - 1_000);
    // rows before it turn out taller: the target moves down, the scroll follows
    measure([
      [490, 126],
      [495, 126],
    ]);
    expect(scroller.scrollTop).toBe(500 * 26 + 200 + 13 - 1_000);
    // a scroll by the user ends the chase
    scroller.scrollTop = 100;
    scroller.dispatchEvent(new Event('scroll'));
    // (the scroll also folds in what the measured rows taught: the same content moved)
    const settled = scroller.scrollTop;
    measure([[499, 226]]);
    expect(scroller.scrollTop).toBe(settled);
  });

  it("'auto' leaves a row in view alone and brings one out of view to the nearest edge", () => {
    const { controller, scroller } = setup(1_000);
    controller.scrollToRow(10, 'auto');
    expect(scroller.scrollTop).toBe(0);
    controller.scrollToRow(200, 'auto');
    expect(scroller.scrollTop).toBe(201 * 26 - 2_000);
    controller.scrollToRow(5, 'auto');
    expect(scroller.scrollTop).toBe(5 * 26);
  });

  it("the end of the list is reachable after the last rows are measured taller ('end')", () => {
    const { controller, scroller, measure, inner } = setup(100);
    controller.scrollToRow(99, 'end');
    expect(scroller.scrollTop).toBe(2_600 - 2_000);
    measure([[99, 526]]);
    expect(inner.style.height).toBe('3100px');
    expect(scroller.scrollTop).toBe(3_100 - 2_000);
  });

  it('learned estimates are folded in while scrolling without moving the row at the top', () => {
    let now = 0;
    const list = markerRows(1_000);
    const controller = new RowWindowController(
      2,
      () => {},
      () => now,
    );
    controller.setRows(1_000, (row) => list[row]);
    const scroller = document.createElement('div');
    scroller.className = 'timeline';
    document.body.append(scroller);
    controller.attach(scroller);
    const observer = FakeObserver.last!;
    // rows 0-2 measured at 60 px: every marker not measured yet is now estimated at 60
    observer.callback([0, 1, 2].map((row) => entry(rowElement(row), 60)));
    expect(controller.total()).toBe(3 * 60 + 997 * 26);
    now = 1_000;
    scroller.scrollTop = 3 * 60 + 10 * 26 + 5; // 5 px into row 13
    scroller.dispatchEvent(new Event('scroll'));
    expect(controller.total()).toBe(1_000 * 60);
    expect(scroller.scrollTop).toBe(13 * 60 + 5);
  });

  it('an expanded row is measured but teaches nothing about its shape', () => {
    const { controller, measure, expanded, list } = setup(100);
    expanded.add(list[0]!.id);
    measure([[0, 500]]);
    expect(controller.total()).toBe(500 + 99 * 26);
  });

  it('stops measuring a row when it leaves, and ignores rows of an older list', () => {
    const { controller, observer, measure } = setup(10);
    const element = rowElement(3);
    const cleanup = controller.measureRow(element)!;
    expect(observer.observed.has(element)).toBe(true);
    cleanup();
    expect(observer.observed.has(element)).toBe(false);
    measure([[50, 400]]);
    expect(controller.total()).toBe(260);
  });

  it('measures the rows of the first render, whose refs React attaches before the scroller', () => {
    const list = markerRows(10);
    const controller = new RowWindowController(2, () => {});
    controller.setRows(10, (row) => list[row]);
    const first = rowElement(0);
    controller.measureRow(first);
    const scroller = document.createElement('div');
    scroller.className = 'timeline';
    document.body.append(scroller);
    controller.attach(scroller);
    const observer = FakeObserver.last!;
    expect(observer.observed.has(first)).toBe(true);
    observer.callback([entry(first, 300)]);
    expect(controller.offsetOf(1)).toBe(300);
  });
});

describe('row window, a list that grows by slices (issue 27)', () => {
  /** The rows of a loading run: `slices` slices of `size` rows, with one old row replaced each. */
  function grow(withChange: boolean) {
    const list = markerRows(20_000);
    const shown: TimelineItem[] = list.slice(0, 10_000);
    let reads = 0;
    const itemsOf = (items: TimelineItem[]) => (row: number) => {
      reads++;
      return items[row];
    };
    const controller = new RowWindowController(2, () => {});
    controller.setRows(shown.length, itemsOf(shown), {
      from: NaN,
      to: 1,
      appendedFrom: -1,
      replaced: [],
    });
    // a row measured far above keeps its height through the slices (expanded: it teaches
    // no estimate, so both lists below estimate every other row alike)
    controller.setExpanded(new Set([6]));
    const scroller = document.createElement('div');
    controller.attach(scroller);
    FakeObserver.last!.callback([entry(rowElement(5), 300)]);
    const readsPerSlice: number[] = [];
    let items = shown;
    for (let slice = 0; slice < 10; slice++) {
      const from = items.length;
      const next = items.concat(list.slice(from, from + 1_000));
      // an old row's item replaced by a longer one (a step header that got its usage)
      const replacedRow = 100 + slice;
      next[replacedRow] = { ...next[replacedRow]!, text: 'x'.repeat(900) } as TimelineItem;
      reads = 0;
      controller.setRows(
        next.length,
        itemsOf(next),
        withChange
          ? { from: slice + 1, to: slice + 2, appendedFrom: from, replaced: [replacedRow] }
          : undefined,
      );
      readsPerSlice.push(reads);
      items = next;
    }
    return { controller, items, readsPerSlice };
  }

  it('reads only the new and replaced rows of a slice, and places rows as a list built whole does', () => {
    const { controller, items, readsPerSlice } = grow(true);
    // 1,000 new rows and one replaced row a slice (each read once), not the 10,000+ before
    for (const reads of readsPerSlice) expect(reads).toBeLessThanOrEqual(1_001 * 2);
    const whole = new RowWindowController(2, () => {});
    whole.setRows(items.length, (row) => items[row]);
    whole.setExpanded(new Set([6]));
    const scroller = document.createElement('div');
    whole.attach(scroller);
    FakeObserver.last!.callback([entry(rowElement(5), 300)]);
    expect(controller.total()).toBe(whole.total());
    for (const row of [0, 5, 6, 104, 105, 10_000, 15_000, 19_999]) {
      expect(controller.offsetOf(row)).toBe(whole.offsetOf(row));
    }
  });

  it('without the change, each slice reads the whole list again', () => {
    const { readsPerSlice } = grow(false);
    expect(Math.min(...readsPerSlice)).toBeGreaterThan(10_000);
  });
});

describe('row window, estimates learned while a run loads', () => {
  it('rows read in earlier slices take what was learned since, at most every 200 ms', () => {
    const list = markerRows(3_000);
    let now = 0;
    const controller = new RowWindowController(
      2,
      () => {},
      () => now,
    );
    let items = list.slice(0, 1_000);
    const itemAt = (shown: TimelineItem[]) => (row: number) => shown[row];
    controller.setRows(items.length, itemAt(items), {
      from: NaN,
      to: 1,
      appendedFrom: -1,
      replaced: [],
    });
    controller.setExpanded(new Set());
    controller.attach(document.createElement('div'));
    // markers measure 40 px, not the 26 px guessed: the estimate of every marker moves
    FakeObserver.last!.callback([entry(rowElement(0), 40)]);
    const grow = (to: number, version: number) => {
      const from = items.length;
      items = list.slice(0, to);
      controller.setRows(items.length, itemAt(items), {
        from: version,
        to: version + 1,
        appendedFrom: from,
        replaced: [],
      });
    };
    grow(2_000, 1);
    // too soon: the old rows keep their estimate for now, the new ones have the new one
    expect(controller.offsetOf(1_000)).toBe(40 + 999 * 26);
    now = 250;
    grow(3_000, 2);
    expect(controller.offsetOf(1_000)).toBe(1_000 * 40);
    expect(controller.total()).toBe(3_000 * 40);
  });
});
