/**
 * What the compare list shows: long stretches of identical rows are folded into one
 * "N identical steps" line (as code review tools fold unchanged lines), keeping one row
 * of context on each side, so a 10,000-step comparison with three differences is a
 * short list. A fold the user opened stays open.
 */
import type { AlignedRow } from '@shared/compare/types';

export type DisplayItem = { kind: 'row'; row: number } | { kind: 'fold'; from: number; to: number };

/** identical rows kept visible next to a difference (or the start and end) */
export const FOLD_CONTEXT = 1;
/** fewer hidden rows than this are not worth a fold */
export const MIN_FOLD = 3;

const isSame = (row: AlignedRow) => row.status === 'same' || row.status === 'shared';

export interface Display {
  items: DisplayItem[];
  /** row -> its position in `items`, or -1 while it is folded away */
  positionOfRow: Int32Array;
}

/** `unfolded`: first rows of the folds the user opened. */
export function foldRows(rows: readonly AlignedRow[], unfolded: ReadonlySet<number>): Display {
  const items: DisplayItem[] = [];
  const positionOfRow = new Int32Array(rows.length).fill(-1);
  const show = (row: number) => {
    positionOfRow[row] = items.length;
    items.push({ kind: 'row', row });
  };
  let i = 0;
  while (i < rows.length) {
    if (!isSame(rows[i]!)) {
      show(i++);
      continue;
    }
    let end = i;
    while (end + 1 < rows.length && isSame(rows[end + 1]!)) end++;
    const from = i + FOLD_CONTEXT;
    const to = end - FOLD_CONTEXT;
    if (to - from + 1 >= MIN_FOLD && !unfolded.has(from)) {
      for (let r = i; r < from; r++) show(r);
      items.push({ kind: 'fold', from, to });
      for (let r = to + 1; r <= end; r++) show(r);
    } else {
      for (let r = i; r <= end; r++) show(r);
    }
    i = end + 1;
  }
  return { items, positionOfRow };
}

/** The fold hiding `row`, if any. */
export function foldOf(display: Display, row: number): { from: number; to: number } | undefined {
  if (display.positionOfRow[row] !== -1) return undefined;
  for (const item of display.items) {
    if (item.kind === 'fold' && item.from <= row && row <= item.to) return item;
  }
  return undefined;
}
