import { useCallback, useMemo } from 'react';
import { positionOfId } from '../../store/timeline/model';
import type { TimelineItem } from '../../store/timeline/types';
import {
  computeVisibleRows,
  type TimelineFilters,
  type VisibleRows,
} from '../../store/timeline/visible-rows';

/** The rows of a timeline under the current filters, with lookups both ways. */
export function useRows(
  items: readonly TimelineItem[],
  filters: TimelineFilters,
  collapsed: ReadonlySet<number>,
) {
  const rows: VisibleRows = useMemo(
    () => computeVisibleRows(items, filters, collapsed),
    [items, filters, collapsed],
  );
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
  return { count, itemAt, rowOfId };
}
