/**
 * The minimap's marked rows (`markOf` in overview.ts) kept up to date list by list: rows
 * with a change from the list fed last (no filter on: the timeline's own change) cost
 * their new and replaced rows, not the run. `minimapMarks` read every row, twice a second
 * while a 100,000-step run loaded (310,000 rows a scan, ~45 ms each: issue 27). The marks
 * are bucketed by kind, a binary search per bucket for its first marked row, so a draw
 * costs the buckets (a rich 100,000-step run has 71,000 marked rows), not the rows.
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
  /** per mark kind: its rows, ascending, and their items' ids */
  private byKind = new Map<MarkKind, { rows: number[]; ids: number[] }>();
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
    // as minimapMarks: monotonic in the row, so each bucket's rows are found by bisection
    const bucketOf = (row: number) => Math.min(buckets - 1, Math.floor((row / count) * buckets));
    const found: { mark: MinimapMark; row: number }[] = [];
    for (const [kind, { rows, ids }] of this.byKind) {
      let at = 0;
      while (at < rows.length) {
        const bucket = bucketOf(rows[at]!);
        // the first row past this bucket
        let lo = at + 1;
        let hi = rows.length;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (bucketOf(rows[mid]!) <= bucket) lo = mid + 1;
          else hi = mid;
        }
        found.push({ mark: { kind, bucket, itemId: ids[at]!, count: lo - at }, row: rows[at]! });
        at = lo;
      }
    }
    // minimapMarks's order: by each mark's first row
    return found.sort((a, b) => a.row - b.row).map((f) => f.mark);
  }

  private readWhole(): void {
    this.byKind = new Map();
    for (let row = 0; row < this.count; row++) this.append(row);
    this.isStale = false;
  }

  private marked(kind: MarkKind): { rows: number[]; ids: number[] } {
    let marked = this.byKind.get(kind);
    if (!marked) this.byKind.set(kind, (marked = { rows: [], ids: [] }));
    return marked;
  }

  private append(row: number): void {
    this.rowsRead++;
    const item = this.itemAt(row);
    const kind = item ? markOf(item) : null;
    if (!item || !kind) return;
    const marked = this.marked(kind);
    marked.rows.push(row);
    marked.ids.push(item.id);
  }

  /** A row before the appended ones whose item is another object now. */
  private replace(row: number): void {
    this.rowsRead++;
    const item = this.itemAt(row);
    const kind = item ? markOf(item) : null;
    for (const [k, marked] of this.byKind) {
      const at = lowerBound(marked.rows, row);
      if (marked.rows[at] !== row) continue;
      if (k === kind) {
        marked.ids[at] = item!.id;
        return;
      }
      marked.rows.splice(at, 1);
      marked.ids.splice(at, 1);
    }
    if (!item || !kind) return;
    const marked = this.marked(kind);
    const at = lowerBound(marked.rows, row);
    marked.rows.splice(at, 0, row);
    marked.ids.splice(at, 0, item.id);
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
