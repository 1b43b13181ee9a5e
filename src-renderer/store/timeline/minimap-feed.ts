/**
 * The minimap's marked rows (`markOf` in overview.ts) kept up to date list by list: rows
 * with a change from the list fed last (no filter on: the timeline's own change) cost
 * their new and replaced rows, not the run. `minimapMarks` read every row, twice a second
 * while a 100,000-step run loaded (310,000 rows a scan, ~45 ms each: issue 27). The marks
 * are bucketed from the marked rows, which are few, so a render costs them, not the rows.
 */
import { markOf, type MarkKind, type MinimapMark } from './overview';
import type { TimelineItem } from './types';

/** What changed since the list fed before (row-window.ts `RowsChange`). */
export interface MarkedRowsChange {
  from: number;
  to: number;
  appendedFrom: number;
  replaced: readonly number[];
}

export class MinimapFeed {
  private version = NaN;
  private count = 0;
  private itemAt: (row: number) => TimelineItem | undefined = () => undefined;
  /** the list fed last was not read yet (no change to follow): read whole when asked */
  private isStale = false;
  /** the marked rows, ascending, with their mark and item id */
  private rows: number[] = [];
  private kinds: MarkKind[] = [];
  private ids: number[] = [];
  /** rows read since the start (tests count them) */
  rowsRead = 0;

  /** Brings the marked rows to this list; a list without a change is read at `marks`. */
  update(
    count: number,
    itemAt: (row: number) => TimelineItem | undefined,
    change?: MarkedRowsChange,
  ): void {
    if (count === this.count && itemAt === this.itemAt) return;
    const follows =
      change !== undefined &&
      !this.isStale &&
      change.from === this.version &&
      change.appendedFrom === this.count &&
      count >= this.count;
    this.count = count;
    this.itemAt = itemAt;
    this.version = change ? change.to : NaN;
    if (!follows) {
      // another list (a filter, another run, a skipped model): read whole, but only when
      // drawn (the draw is throttled, a list per slice is not)
      this.isStale = true;
      return;
    }
    for (const row of change.replaced) this.replace(row);
    for (let row = change.appendedFrom; row < count; row++) this.append(row);
  }

  /** The same marks as `minimapMarks(count, itemAt, buckets)` of the list fed last. */
  marks(buckets: number): MinimapMark[] {
    if (this.isStale) this.readWhole();
    const count = this.count;
    const byKey = new Map<string, MinimapMark>();
    for (let i = 0; i < this.rows.length; i++) {
      const row = this.rows[i]!;
      const kind = this.kinds[i]!;
      const bucket = Math.min(buckets - 1, Math.floor((row / count) * buckets));
      const k = `${kind}:${bucket}`;
      const mark = byKey.get(k);
      if (mark) mark.count += 1;
      else byKey.set(k, { kind, bucket, itemId: this.ids[i]!, count: 1 });
    }
    return [...byKey.values()];
  }

  private readWhole(): void {
    this.rows = [];
    this.kinds = [];
    this.ids = [];
    for (let row = 0; row < this.count; row++) this.append(row);
    this.isStale = false;
  }

  private append(row: number): void {
    this.rowsRead++;
    const item = this.itemAt(row);
    const kind = item ? markOf(item) : null;
    if (!item || !kind) return;
    this.rows.push(row);
    this.kinds.push(kind);
    this.ids.push(item.id);
  }

  /** A row before the appended ones whose item is another object now. */
  private replace(row: number): void {
    this.rowsRead++;
    const item = this.itemAt(row);
    const kind = item ? markOf(item) : null;
    const at = lowerBound(this.rows, row);
    const isMarked = this.rows[at] === row;
    if (item && kind) {
      if (isMarked) {
        this.kinds[at] = kind;
        this.ids[at] = item.id;
      } else {
        this.rows.splice(at, 0, row);
        this.kinds.splice(at, 0, kind);
        this.ids.splice(at, 0, item.id);
      }
    } else if (isMarked) {
      this.rows.splice(at, 1);
      this.kinds.splice(at, 1);
      this.ids.splice(at, 1);
    }
  }
}

/** The first index whose value is >= `value` in an ascending array. */
function lowerBound(values: readonly number[], value: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
