/**
 * Stuck detection (OpenManus BaseAgent.is_stuck, with what it misses).
 *
 * The original compared the content of the LAST message with earlier assistant messages:
 * empty content (a pure tool call) never counted, and after a tool step the last message
 * is the tool result, so tool loops were never detected (openmanus.md 7.1 d). Here the
 * step's own assistant message is compared, wherever the tool results put it:
 *
 * - kind `content`: its non-empty content equals the content of at least
 *   `duplicateThreshold` earlier assistant messages (the original's rule and default 2);
 * - kind `tool_calls`: its tool calls (names and arguments in canonical JSON, order kept)
 *   equal those of at least `duplicateThreshold` earlier assistant messages, whatever the
 *   content (empty content included).
 *
 * Like the original, earlier messages are those still in the memory window, in any
 * position (not only consecutive). `count` is the number of occurrences including the
 * latest one; `duplicateOf` the memory indexes of the earlier ones.
 */
import type { ToolCall } from '@shared/domain/message';
import type { MemoryEntry } from './memory';

export interface StuckHit {
  kind: 'content' | 'tool_calls';
  count: number;
  duplicateOf: number[];
}

/** The original's stuck prompt, applied to the next step only (never stacked: 7.1 e). */
export const STUCK_NUDGE =
  'Observed duplicate responses. Consider new strategies and avoid repeating ineffective paths already attempted.';

export function detectStuck(
  entries: readonly MemoryEntry[],
  latestIndex: number,
  duplicateThreshold: number,
): StuckHit[] {
  const latest = entries.find((e) => e.index === latestIndex);
  if (!latest || latest.message.role !== 'assistant') return [];
  const content = latest.message.content?.trim() ?? '';
  const calls = latest.message.tool_calls ?? [];
  const signature = calls.length > 0 ? callsSignature(calls) : null;
  const sameContent: number[] = [];
  const sameCalls: number[] = [];
  for (const entry of entries) {
    if (entry.index >= latestIndex || entry.message.role !== 'assistant') continue;
    if (content && entry.message.content?.trim() === content) sameContent.push(entry.index);
    const earlier = entry.message.tool_calls ?? [];
    if (signature !== null && earlier.length > 0 && callsSignature(earlier) === signature) {
      sameCalls.push(entry.index);
    }
  }
  const hits: StuckHit[] = [];
  if (sameContent.length >= duplicateThreshold) {
    hits.push({ kind: 'content', count: sameContent.length + 1, duplicateOf: sameContent });
  }
  if (sameCalls.length >= duplicateThreshold) {
    hits.push({ kind: 'tool_calls', count: sameCalls.length + 1, duplicateOf: sameCalls });
  }
  return hits;
}

const signatures = new WeakMap<ToolCall[], string>();

/** Names and canonical arguments; cached per message (messages are never edited). */
export function callsSignature(calls: ToolCall[]): string {
  const cached = signatures.get(calls);
  if (cached !== undefined) return cached;
  const signature = JSON.stringify(
    calls.map((c) => [c.function.name, canonicalArguments(c.function.arguments)]),
  );
  signatures.set(calls, signature);
  return signature;
}

/** JSON with object keys sorted, so `{"a":1,"b":2}` and `{ "b": 2, "a": 1 }` are equal. */
export function canonicalArguments(raw: string): string {
  try {
    return JSON.stringify(sortKeys(JSON.parse(raw)));
  } catch {
    return raw.trim();
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}
