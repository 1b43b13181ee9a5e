/**
 * The timeline's row window: which rows exist in the DOM (those in view and a few around
 * them), where each starts, how tall the whole list is, and scrolling to a row.
 *
 * Offsets live in a Fenwick tree (row-offsets.ts), so a row measured anew costs O(log n).
 * The list virtualizer used before laid its offsets out again from the first newly
 * measured row to the end of the list: scrolling a 10,000-step run measures rows every
 * frame, so every frame walked tens of thousands of rows. Heights are kept per row key
 * and outlive the list (a new slice of a loading run, a filter).
 *
 * Each row is placed on its own (a transform): a row that moves keeps what it painted.
 * Rows in normal flow in one moving block were tried and measured worse: every row that
 * shifted inside the block was painted again, 1.7 times the paint per scrolled frame.
 * The transforms are written here, not rendered: the rows measured after each scrolled
 * frame move the rows after them, and rendering the timeline again for that was a second
 * render per frame (its hooks, its row list, a style object per row).
 *
 * A row measured anew above the top of the view would push what the user is looking at:
 * the scroll position moves by the same amount (the browser's own scroll anchoring is off
 * for the list, see timeline.css). A scroll to a row is repeated while the rows around it
 * are measured, until it holds.
 */
import type { TimelineItem } from '../../store/timeline/types';
import { RowOffsets } from './row-offsets';
import { LearnedHeights, RowSizes } from './row-sizes';

export type RowAlign = 'start' | 'center' | 'end' | 'auto';

/**
 * How a list of rows differs from the one the controller was given before it (the
 * timeline's `change`, with rows that are item positions): it is that list (`from`) with
 * rows from `appendedFrom` on added and the `replaced` rows showing another item.
 */
export interface RowsChange {
  from: number;
  to: number;
  appendedFrom: number;
  replaced: readonly number[];
}

export interface RowRange {
  first: number;
  /** first - 1 when the list is empty */
  last: number;
}

/** Before the scroller has a layout (and in tests without one): a screenful. */
const DEFAULT_VIEWPORT = 800;
/** A scroll to a row is applied again after at most this many measurement rounds. */
const TARGET_TRIES = 10;
/** Estimates that moved are folded into the offsets at most this often while scrolling. */
const REESTIMATE_MS = 200;

export class RowWindowController {
  private readonly learned = new LearnedHeights();
  private sizes: RowSizes;
  private offsets: RowOffsets;
  /** expanded rows (by key) are measured but teach nothing about their shape */
  private expanded: ReadonlySet<number> = new Set();
  private readonly measured = new Map<number, number>();
  /** the row elements in the DOM, each with the offset its transform was last set to */
  private readonly placed = new Map<HTMLElement, number>();
  private current: RowRange = { first: 0, last: -1 };
  private scroller: HTMLElement | null = null;
  /** the element as tall as the whole list: its height is written here, not rendered */
  private inner: HTMLElement | null = null;
  /**
   * One observer for the scroller and every row, made with the controller: React attaches
   * the rows' refs before their scroller's, so rows of the first render would otherwise
   * never be measured (they overlapped the rows after them).
   */
  private readonly observer: ResizeObserver | null =
    typeof ResizeObserver !== 'undefined' ? new ResizeObserver((e) => this.onResize(e)) : null;
  private viewport = DEFAULT_VIEWPORT;
  private scrollTop = 0;
  /** the position this controller set last: a scroll elsewhere is the user's */
  private setTop = -1;
  private target: { row: number; align: RowAlign; tries: number } | null = null;
  private estimatesMoved = false;
  private reestimatedAt = 0;
  /** the `to` of the last change given with the rows (NaN: rows given without one) */
  private version = NaN;

  constructor(
    private readonly overscan: number,
    /** render again; `sync` when rows are missing from the view right now */
    private readonly onChange: (sync: boolean) => void,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.sizes = new RowSizes(0, () => undefined, this.learned);
    this.offsets = this.build();
  }

  /**
   * The list of rows (the run grew, a filter changed): idempotent, so it is called as the
   * timeline renders. Rows whose item did not change keep their key and shape. With a
   * `change` from the list given last (a loading or live run's next slice), only the new
   * and replaced rows are read and placed: a slice costs its own rows, not the run's.
   */
  setRows(
    count: number,
    itemAt: (row: number) => TimelineItem | undefined,
    change?: RowsChange,
  ): void {
    if (count === this.sizes.count && itemAt === this.sizes.itemAt) return;
    const before = this.sizes.count;
    if (
      change &&
      change.from === this.version &&
      change.appendedFrom === before &&
      count >= before
    ) {
      this.sizes.extend(count, itemAt, change.replaced);
      for (const row of change.replaced) {
        // a row not measured yet takes its new shape's estimate (a measured one keeps its height)
        if (row < before && !this.measured.has(this.sizes.key(row)))
          this.offsets.setSize(row, this.sizes.estimate(row));
      }
      this.offsets.append(count - before, (row) => this.sizeOf(row));
      // rows read in earlier slices keep the estimates of their time: brought up to date
      // with what was learned since, at most five times a second (a pass over the rows)
      if (this.estimatesMoved && this.now() - this.reestimatedAt >= REESTIMATE_MS)
        this.reestimate();
    } else {
      this.sizes = new RowSizes(count, itemAt, this.learned, this.sizes);
      this.offsets = this.build();
      this.estimatesMoved = false;
    }
    this.version = change?.to ?? NaN;
    this.current = this.computeRange();
  }

  private sizeOf(row: number): number {
    return this.measured.get(this.sizes.key(row)) ?? this.sizes.estimate(row);
  }

  setExpanded(expanded: ReadonlySet<number>): void {
    this.expanded = expanded;
  }

  /** The row's React key: its item's id, so its measured height follows it. */
  key(row: number): number {
    return this.sizes.key(row);
  }

  range(): RowRange {
    return this.current;
  }

  /** Where the row starts. */
  offsetOf(row: number): number {
    return this.offsets.offsetOf(row);
  }

  total(): number {
    return this.offsets.total();
  }

  /** The scroll container, from its ref; returns the detach. */
  attach = (element: HTMLElement): (() => void) => {
    this.scroller = element;
    this.viewport = element.clientHeight || DEFAULT_VIEWPORT;
    this.scrollTop = element.scrollTop;
    element.addEventListener('scroll', this.onScroll, { passive: true });
    this.observer?.observe(element);
    this.refresh(false);
    return () => {
      element.removeEventListener('scroll', this.onScroll);
      this.observer?.unobserve(element);
      this.scroller = null;
    };
  };

  /**
   * The list's full-height element, from its ref. Its height is written by this
   * controller, also between renders: a scroll to a row just measured taller must not be
   * cut short by a height the last render wrote.
   */
  holdList = (element: HTMLElement | null): void => {
    this.inner = element;
    this.writeHeight();
  };

  /** After each render (the list may have changed under the same rows). */
  writeHeight(): void {
    if (this.inner) this.inner.style.height = `${this.offsets.total()}px`;
  }

  /**
   * A row element's ref (it carries `data-index`): placed at once, then measured and kept
   * in place; the cleanup stops both.
   */
  measureRow = (element: HTMLElement | null): (() => void) | undefined => {
    if (!element) return undefined;
    this.place(element);
    this.observer?.observe(element);
    return () => {
      this.observer?.unobserve(element);
      this.placed.delete(element);
    };
  };

  /** After each render: a row element may now stand for another row (rows came above it). */
  placeRows(): void {
    for (const element of this.placed.keys()) this.place(element);
  }

  private place(element: HTMLElement): void {
    const offset = this.offsets.offsetOf(Number(element.dataset['index']));
    if (this.placed.get(element) === offset) return;
    this.placed.set(element, offset);
    element.style.transform = `translateY(${offset}px)`;
  }

  scrollToRow = (row: number, align: RowAlign): void => {
    if (row < 0 || row >= this.offsets.count) return;
    this.target = { row, align, tries: 0 };
    this.applyTarget();
    this.refresh(false);
  };

  private readonly onScroll = (): void => {
    const element = this.scroller;
    if (!element) return;
    this.scrollTop = element.scrollTop;
    if (this.target && Math.abs(this.scrollTop - this.setTop) > 1) this.target = null;
    if (this.estimatesMoved && this.now() - this.reestimatedAt >= REESTIMATE_MS) {
      this.reestimate();
      this.placeRows();
    }
    this.refresh(true);
  };

  private readonly onResize = (entries: ResizeObserverEntry[]): void => {
    let adjust = 0;
    let moved = false;
    for (const entry of entries) {
      const element = entry.target as HTMLElement;
      if (element === this.scroller) {
        this.viewport = Math.round(entry.contentRect.height) || this.viewport;
        moved = true;
        continue;
      }
      const row = Number(element.dataset['index']);
      if (!element.isConnected || !(row >= 0 && row < this.offsets.count)) continue;
      const box = entry.borderBoxSize?.[0];
      const height = Math.round(box ? box.blockSize : entry.contentRect.height);
      const key = this.sizes.key(row);
      if (
        box &&
        !this.expanded.has(key) &&
        this.sizes.learn(row, height, Math.round(box.inlineSize))
      )
        this.estimatesMoved = true;
      this.measured.set(key, height);
      const start = this.offsets.offsetOf(row);
      const delta = this.offsets.setSize(row, height);
      if (delta === 0) continue;
      moved = true;
      // a row that starts above the view pushes the rows in view: follow them
      if (start < this.scrollTop + adjust) adjust += delta;
    }
    if (!moved) return;
    this.writeHeight();
    if (adjust !== 0) this.setScrollTop(this.scrollTop + adjust);
    if (this.target) {
      if (++this.target.tries > TARGET_TRIES) this.target = null;
      else this.applyTarget();
    }
    // the rows after a measured one move: placed again before this frame is painted,
    // and rendered only when other rows now come into the window
    this.placeRows();
    this.refresh(true);
  };

  /** Recomputes the range; renders when it changed. */
  private refresh(sync: boolean): void {
    const next = this.computeRange();
    const changed = next.first !== this.current.first || next.last !== this.current.last;
    this.current = next;
    if (changed) this.onChange(sync);
  }

  private computeRange(): RowRange {
    const count = this.offsets.count;
    if (count === 0) return { first: 0, last: -1 };
    const first = Math.max(0, this.offsets.rowAt(this.scrollTop) - this.overscan);
    const last = Math.min(
      count - 1,
      this.offsets.rowAt(this.scrollTop + this.viewport) + this.overscan,
    );
    return { first, last };
  }

  private build(): RowOffsets {
    return new RowOffsets(this.sizes.count, (row) => this.sizeOf(row));
  }

  /** Folds moved estimates into the offsets, keeping the row at the top where it is. */
  private reestimate(): void {
    const anchor = this.offsets.rowAt(this.scrollTop);
    const within = this.scrollTop - this.offsets.offsetOf(anchor);
    this.offsets = this.build();
    this.estimatesMoved = false;
    this.reestimatedAt = this.now();
    this.writeHeight();
    const top = this.offsets.offsetOf(anchor) + within;
    if (Math.abs(top - this.scrollTop) > 0.5) this.setScrollTop(top);
  }

  private applyTarget(): void {
    const target = this.target;
    if (!target || target.row >= this.offsets.count) {
      this.target = null;
      return;
    }
    const top = this.topFor(target.row, target.align);
    if (top === null || Math.abs(top - this.scrollTop) <= 1) {
      // holds already; 'auto' is done once the row is in view
      if (target.align === 'auto') this.target = null;
      return;
    }
    this.setScrollTop(top);
  }

  private topFor(row: number, align: RowAlign): number | null {
    const start = this.offsets.offsetOf(row);
    const size = this.offsets.size(row);
    const view = this.viewport;
    switch (align) {
      case 'start':
        return start;
      case 'end':
        return start + size - view;
      case 'center':
        return start + size / 2 - view / 2;
      case 'auto':
        if (start >= this.scrollTop && start + size <= this.scrollTop + view) return null;
        return start < this.scrollTop ? start : start + size - view;
    }
  }

  private setScrollTop(top: number): void {
    const clamped = Math.max(0, Math.min(top, this.offsets.total() - this.viewport));
    this.scrollTop = clamped;
    this.setTop = clamped;
    if (this.scroller) this.scroller.scrollTop = clamped;
  }
}
