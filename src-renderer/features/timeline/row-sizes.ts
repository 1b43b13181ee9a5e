/**
 * Keys and height estimates of the timeline's rows, for the row window (row-window.ts).
 *
 * The row window asks every row's key and (when not measured) its estimated height each
 * time the list changes or the estimates move: over tens of thousands of rows, reading
 * them from items of ten different shapes cost milliseconds. Here each row's key and
 * shape are read once per list and kept in flat arrays.
 *
 * Estimates are learned: rows of the same shape (kind, role, what they show, how long
 * their text is) have about the same height, so a row scrolled into view gets the mean
 * height measured for its shape. A poor estimate (a markdown reply is three times the
 * height of a plain line) made the first render of a new screenful build far more rows
 * than fit, and moved every row below once measured.
 */
import type { TimelineItem, TimelineItemKind } from '../../store/timeline/types';

/** Before anything of a kind was measured. */
const DEFAULT_HEIGHT: Record<TimelineItemKind, number> = {
  run: 64,
  step: 34,
  message: 76,
  stream: 60,
  tool: 92,
  marker: 26,
  stuck: 64,
  human: 52,
  finished: 48,
  score: 44,
  debug: 30,
  user: 60,
};

const KINDS: readonly TimelineItemKind[] = [
  'run',
  'step',
  'message',
  'stream',
  'tool',
  'marker',
  'stuck',
  'human',
  'finished',
  'debug',
  'score',
  'user',
];
const KIND_INDEX = new Map(KINDS.map((k, i) => [k, i]));
const ROLE_INDEX: Record<string, number> = { system: 1, user: 2, assistant: 3, tool: 4 };
/** a message variant of its own: images are only on user messages (roles take 1-4) */
const IMAGE_VARIANT = 5;
const STATUS_INDEX: Record<string, number> = { running: 0, ok: 1, error: 2, skipped: 3 };

/** kind (4 bits) · variant (3) · flags (4) · text length bucket (3) */
const SHAPES = 1 << 14;
/** the per-kind slot: variant 7, flags 15, bucket 7 (no row's shape has variant 7) */
const KIND_SLOT = (1 << 10) - 1;
/** a shape's estimate is the mean of its first measurements, then stays put */
const SAMPLES = 16;

/** Length buckets of the text a row shows (its head is cut at 1,200 characters). */
function lengthBucket(length: number): number {
  if (length === 0) return 0;
  if (length <= 80) return 1;
  if (length <= 200) return 2;
  if (length <= 400) return 3;
  if (length <= 700) return 4;
  if (length <= 1000) return 5;
  if (length <= 1400) return 6;
  return 7;
}

function shape(kind: number, variant: number, flags: number, length: number): number {
  return (kind << 10) | ((variant & 7) << 7) | ((flags & 15) << 3) | lengthBucket(length);
}

/** What decides a row's height when it is not expanded, as a number below SHAPES. */
export function shapeOf(item: TimelineItem): number {
  const kind = KIND_INDEX.get(item.kind)!;
  switch (item.kind) {
    case 'message': {
      const flags =
        (item.toolCalls && item.toolCalls.length > 0 ? 1 : 0) |
        (item.duplicate ? 2 : 0) |
        (item.repeatOf !== undefined ? 4 : 0) |
        (item.response || item.droppedAtSeq !== undefined || item.repeatedLater > 0 ? 8 : 0);
      // a message with an image (or its placeholder) has a thumbnail box of fixed height
      const variant = item.imageMimeType ? IMAGE_VARIANT : (ROLE_INDEX[item.role] ?? 0);
      return shape(kind, variant, flags, item.content?.length ?? 0);
    }
    case 'tool': {
      const flags =
        (item.error !== undefined ? 1 : 0) |
        (item.repeatOf !== undefined || item.isSandboxFailure ? 2 : 0) |
        (item.live !== undefined ? 4 : 0) |
        (item.repeats !== undefined ? 8 : 0);
      const length = Math.max(item.output?.length ?? 0, item.error?.length ?? 0);
      // a card with a sandbox line (4 statuses, so +4 stays within the variant's 3 bits)
      const variant = (STATUS_INDEX[item.status] ?? 0) + (item.sandbox ? 4 : 0);
      return shape(kind, variant, flags, length);
    }
    case 'step':
      return shape(kind, 0, (item.request ? 1 : 0) | (item.usage ? 2 : 0), 0);
    case 'marker':
      return shape(kind, item.planStep ? 1 : 0, 0, item.text.length);
    case 'stream':
      return shape(kind, item.isHeld ? 1 : 0, 0, item.text.length);
    default:
      return shape(kind, 0, 0, 0);
  }
}

/**
 * Heights measured per shape, kept across lists (a new slice of a loading run keeps
 * what the first ones taught). Forgotten when the rows' width changes.
 */
export class LearnedHeights {
  private readonly sums = new Float64Array(SHAPES);
  private readonly counts = new Uint8Array(SHAPES);
  private width = -1;

  /** The shape's mean height, else its kind's, else a fixed guess. */
  estimate(shapeId: number): number {
    if (this.counts[shapeId]! > 0) return this.sums[shapeId]! / this.counts[shapeId]!;
    const kindSlot = (shapeId & ~KIND_SLOT) + KIND_SLOT;
    if (this.counts[kindSlot]! > 0) return this.sums[kindSlot]! / this.counts[kindSlot]!;
    return DEFAULT_HEIGHT[KINDS[shapeId >> 10] ?? 'marker'];
  }

  /** A row of this shape measured this tall, at this width; true when an estimate moved. */
  learn(shapeId: number, height: number, width: number): boolean {
    let moved = false;
    if (width !== this.width) {
      if (this.width !== -1) this.forget();
      this.width = width;
      moved = true;
    }
    moved = this.add(shapeId, height) || moved;
    // the kind's own slot gives shapes not measured yet a better start than a fixed guess
    return this.add((shapeId & ~KIND_SLOT) + KIND_SLOT, height) || moved;
  }

  private add(slot: number, height: number): boolean {
    const n = this.counts[slot]!;
    if (n >= SAMPLES) return false;
    const before = n > 0 ? this.sums[slot]! / n : -1;
    this.sums[slot] = this.sums[slot]! + height;
    this.counts[slot] = n + 1;
    return this.sums[slot]! / (n + 1) !== before;
  }

  private forget(): void {
    this.sums.fill(0);
    this.counts.fill(0);
  }
}

const MARKER_SHAPE = KIND_INDEX.get('marker')! << 10;

/**
 * One list of rows: each row's key and shape, read from its item once. A new list (a
 * filter, a collapsed step) takes them over from the previous one for the rows whose
 * item did not change, so it reads only the items that changed; a list that grew by a
 * slice (`extend`) is updated in place, for its new and replaced rows only.
 */
export class RowSizes {
  private keys: Float64Array;
  private shapes: Int32Array;
  private previous: RowSizes | undefined;
  private rows: number;
  private items: (row: number) => TimelineItem | undefined;

  constructor(
    count: number,
    itemAt: (row: number) => TimelineItem | undefined,
    private readonly learned: LearnedHeights,
    previous?: RowSizes | null,
  ) {
    this.rows = count;
    this.items = itemAt;
    this.keys = new Float64Array(count).fill(NaN);
    this.shapes = new Int32Array(count).fill(-1);
    if (previous) {
      // one list back only: older lists (and their items) can go
      previous.previous = undefined;
      this.previous = previous;
    }
  }

  get count(): number {
    return this.rows;
  }

  get itemAt(): (row: number) => TimelineItem | undefined {
    return this.items;
  }

  /**
   * The same rows and more (a loading run's next slice): rows from the current count on
   * are new, `replaced` rows show another item now; no other row is read again.
   */
  extend(
    count: number,
    itemAt: (row: number) => TimelineItem | undefined,
    replaced: readonly number[],
  ): void {
    if (count > this.shapes.length) {
      const capacity = Math.max(count, this.shapes.length * 2, 64);
      const keys = new Float64Array(capacity).fill(NaN);
      keys.set(this.keys.subarray(0, this.rows));
      const shapes = new Int32Array(capacity).fill(-1);
      shapes.set(this.shapes.subarray(0, this.rows));
      this.keys = keys;
      this.shapes = shapes;
    } else {
      this.keys.fill(NaN, this.rows, count);
      this.shapes.fill(-1, this.rows, count);
    }
    // what the previous list knew was taken over when read; its items are not needed now
    for (let row = 0; this.previous && row < this.rows; row++) {
      if (this.shapes[row]! < 0) this.read(row);
    }
    this.previous = undefined;
    for (const row of replaced) if (row < this.rows) this.shapes[row] = -1;
    this.rows = count;
    this.items = itemAt;
  }

  /** The item's id: the row keeps its measured height while rows come and go around it. */
  key(row: number): number {
    if (row >= this.rows) return -row;
    if (this.shapes[row]! < 0) this.read(row);
    return this.keys[row]!;
  }

  estimate(row: number): number {
    return this.learned.estimate(this.shape(row));
  }

  /**
   * Called with a row's measured height (not for expanded rows: they are not the rule);
   * true when the estimates of rows not measured yet moved.
   */
  learn(row: number, height: number, width: number): boolean {
    return this.learned.learn(this.shape(row), height, width);
  }

  private shape(row: number): number {
    if (row >= this.rows) return MARKER_SHAPE;
    if (this.shapes[row]! < 0) this.read(row);
    return this.shapes[row]!;
  }

  private read(row: number): void {
    const item = this.items(row);
    const previous = this.previous;
    if (
      previous &&
      row < previous.rows &&
      previous.shapes[row]! >= 0 &&
      previous.items(row) === item
    ) {
      this.keys[row] = previous.keys[row]!;
      this.shapes[row] = previous.shapes[row]!;
      return;
    }
    this.keys[row] = item?.id ?? -row;
    this.shapes[row] = item ? shapeOf(item) : MARKER_SHAPE;
  }
}
