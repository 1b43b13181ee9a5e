import { useCallback, useMemo } from 'react';
import { positionOfId } from '../../store/timeline/model';
import type { ItemsChange, TimelineItem } from '../../store/timeline/types';
import type { RowsChange } from './row-window';
import {
  computeVisibleRows,
  type TimelineFilters,
  type VisibleRows,
} from '../../store/timeline/visible-rows';

/**
 * The rows of a timeline under the current filters, with lookups both ways. With no
 * filter every item is a row, so the timeline's own change (what its last batch added
 * and replaced) is the rows' change too.
 */
export function useRows(
  items: readonly TimelineItem[],
  filters: TimelineFilters,
  collapsed: ReadonlySet<number>,
  itemsChange?: { version: number; change?: ItemsChange },
) {
  const rows: VisibleRows = useMemo(
    () => computeVisibleRows(items, filters, collapsed),
    [items, filters, collapsed],
  );
  const version = itemsChange?.version;
  const change = itemsChange?.change;
  const rowsChange: RowsChange | undefined = useMemo(() => {
    // filtered rows are not the items: the row window builds them whole
    if (rows !== null || version === undefined) return undefined;
    // without a change the list is built whole, and the next one may build on it
    return change
      ? {
          from: change.from,
          to: version,
          appendedFrom: change.appendedFrom,
          replaced: change.replaced,
        }
      : { from: NaN, to: version, appendedFrom: -1, replaced: [] };
  }, [rows, change, version]);
  const count = rows ? rows.length : items.length;
  const itemAt = useCallback((row: number) => items[rows ? rows[row]! : row], [items, rows]);
  const rowOfId = useCallback(
    (id: number): number => {
      const position = positionOfId(items, id);
      if (position < 0 || !rows) return position;
      let lo = 0;
      let hi = rows.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        if (rows[mid] === position) return mid;
        if (rows[mid]! < position) lo = mid + 1;
        else hi = mid - 1;
      }
      return -1;
    },
    [items, rows],
  );
  return { count, itemAt, rowOfId, rowsChange };
}
