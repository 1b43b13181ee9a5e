/**
 * Which earlier assistant responses a new one repeats: by content (whitespace-normalised)
 * and by tool-call signature, per agent. A long run can repeat the same call hundreds of
 * times, so the cost per response stays constant: a duplicate links to the first
 * occurrence and the latest few (its count is exact), and only the first occurrence of
 * each key is marked as repeated. The lists live in the timeline's grow-only index.
 */
import {
  contentKey,
  EMPTY_RESPONSE_KEY,
  repeatSignature,
  toolSignature,
} from '@shared/duplicate-keys';
import type { DuplicateInfo, MessageItem, TimelineIndex } from './types';

interface Seen {
  memoryIndex: number;
  position: number;
}
interface Earlier {
  count: number;
  /** the first earlier occurrence and the latest few */
  shown: Seen[];
}
const NONE_EARLIER: Earlier = { count: 0, shown: [] };
/** how many of the latest earlier occurrences a duplicate links to (besides the first) */
const RECENT_LINKS = 4;

/** Entries with a memory index below `index` (the list ascends). */
function countBelow(list: readonly Seen[], index: number): number {
  const last = list[list.length - 1];
  if (!last || last.memoryIndex < index) return list.length;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.memoryIndex < index) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** One batch's working copy: the item array and the small records are copied once. */
const key = (agent: string, k: string) => `${agent}\u0000${k}`;

export interface DuplicateMatch {
  kind: DuplicateInfo['kind'];
  /** memory indexes of the earlier occurrences linked to, and their item positions */
  of: number[];
  ofPositions: number[];
  occurrence: number;
  /** positions of the first occurrence of each matching key (to mark as repeated) */
  firstPositions: number[];
}

/** Records the response and says what it repeats, or undefined when nothing. */
export function matchDuplicate(
  index: TimelineIndex,
  agent: string,
  item: MessageItem,
  position: number,
): DuplicateMatch | undefined {
  const byContent = contentKey(item.content);
  const bySignature = repeatSignature(item.toolCalls);
  const isEmpty = toolSignature(item.toolCalls) === null;
  const contentK = byContent ?? (isEmpty ? EMPTY_RESPONSE_KEY : null);
  const content =
    contentK === null
      ? NONE_EARLIER
      : remember(index.contentSeen, key(agent, contentK), item, position);
  const calls =
    bySignature === null
      ? NONE_EARLIER
      : remember(index.signatureSeen, key(agent, bySignature), item, position);
  if (content.count === 0 && calls.count === 0) return undefined;
  const merged = new Map<number, number>();
  for (const seen of [...content.shown, ...calls.shown])
    merged.set(seen.memoryIndex, seen.position);
  const of = [...merged.keys()].sort((a, b) => a - b);
  const firstPositions = [
    ...new Set(
      [content.shown[0], calls.shown[0]].filter((s) => s !== undefined).map((s) => s.position),
    ),
  ];
  return {
    kind:
      content.count > 0 && calls.count > 0 ? 'both' : content.count > 0 ? 'content' : 'tool_calls',
    of,
    ofPositions: of.map((i) => merged.get(i)!),
    occurrence: Math.max(content.count, calls.count) + 1,
    firstPositions,
  };
}

/**
 * Records this message under `k` and returns how many earlier messages had it, with
 * the first and the latest few of them. Memory indexes ascend per agent, so "earlier"
 * is "smaller index"; cutting on it keeps a re-application of the same events (from
 * the same base model) idempotent.
 */
function remember(
  seen: Map<string, Seen[]>,
  k: string,
  item: MessageItem,
  position: number,
): Earlier {
  let list = seen.get(k);
  if (!list) {
    list = [];
    seen.set(k, list);
  }
  const count = countBelow(list, item.memoryIndex);
  if (count === list.length) list.push({ memoryIndex: item.memoryIndex, position });
  if (count === 0) return NONE_EARLIER;
  const recentFrom = Math.max(1, count - RECENT_LINKS);
  return { count, shown: [list[0]!, ...list.slice(recentFrom, count)] };
}
