/**
 * Finding rows: the matches of the search box (highlighted, counted, stepped through)
 * and the next or previous row of a kind (error, duplicate, stuck marker, step) for the
 * timeline's keys. Pure; the searchable text of each item is cached (visible-rows.ts).
 */
import type { TimelineItem } from './types';
import { isError, searchText } from './visible-rows';

export interface SearchMatches {
  /** ids of the items that contain the query, in timeline order */
  ids: number[];
  /** how often the query occurs in them in all */
  occurrences: number;
}

export const NO_MATCHES: SearchMatches = { ids: [], occurrences: 0 };

export function findMatches(items: readonly TimelineItem[], query: string): SearchMatches {
  const needle = query.trim().toLowerCase();
  if (needle === '') return NO_MATCHES;
  const ids: number[] = [];
  let occurrences = 0;
  for (const item of items) {
    const text = searchText(item);
    let at = text.indexOf(needle);
    if (at < 0) continue;
    ids.push(item.id);
    while (at >= 0) {
      occurrences++;
      at = text.indexOf(needle, at + needle.length);
    }
  }
  return { ids, occurrences };
}

/**
 * The match to go to from the selected item: the next one after it (or the previous one
 * before it), wrapping around; null when there is none.
 */
export function stepMatch(
  ids: readonly number[],
  selectedId: number | null,
  direction: 1 | -1,
): number | null {
  if (ids.length === 0) return null;
  if (selectedId === null) return direction > 0 ? ids[0]! : ids[ids.length - 1]!;
  // first index whose id is greater than the selected one
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid]! <= selectedId) lo = mid + 1;
    else hi = mid;
  }
  if (direction > 0) return ids[lo % ids.length]!;
  const before = ids[lo - 1] === selectedId ? lo - 2 : lo - 1;
  return ids[(before + ids.length) % ids.length]!;
}

/** 1-based place of the selected item among the matches, or 0 when it is not one. */
export function matchPlace(ids: readonly number[], selectedId: number | null): number {
  if (selectedId === null) return 0;
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid] === selectedId) return mid + 1;
    if (ids[mid]! < selectedId) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}

export type RowKind = 'error' | 'duplicate' | 'stuck' | 'step';

const IS_KIND: Record<RowKind, (item: TimelineItem) => boolean> = {
  // a step header with an error is not a target: the failing row inside it is
  error: (item) => item.kind !== 'step' && isError(item),
  duplicate: (item) => item.kind === 'message' && item.duplicate !== undefined,
  stuck: (item) => item.kind === 'stuck',
  step: (item) => item.kind === 'step',
};

/** The next (or previous) item of a kind after the selected one, without wrapping. */
export function nextOfKind(
  items: readonly TimelineItem[],
  position: number,
  direction: 1 | -1,
  kind: RowKind,
): TimelineItem | undefined {
  const is = IS_KIND[kind];
  for (let i = position + direction; i >= 0 && i < items.length; i += direction) {
    const item = items[i]!;
    if (is(item)) return item;
  }
  return undefined;
}
