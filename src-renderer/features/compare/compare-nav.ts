/** Moving through the aligned rows of a comparison: to the next or previous difference. */
import type { AlignedRow } from '@shared/compare/types';

export const isDifferentRow = (row: AlignedRow) =>
  row.status === 'changed' || row.status === 'only-a' || row.status === 'only-b';

/**
 * The next (direction 1) or previous (-1) differing row from `from`, or `from` itself
 * when there is none that way (the keys stop at the last difference, they do not wrap).
 */
export function nextDifference(
  rows: readonly AlignedRow[],
  from: number,
  direction: 1 | -1,
): number {
  for (let i = from + direction; i >= 0 && i < rows.length; i += direction) {
    if (isDifferentRow(rows[i]!)) return i;
  }
  return from;
}

/** Rows shown open by default: those that differ. */
export const isOpenByDefault = isDifferentRow;
