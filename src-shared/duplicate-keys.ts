/**
 * Keys that make two assistant responses "the same" for duplicate highlighting: the
 * content (whitespace-normalised), and the tool-call signature (each call's name and
 * canonical arguments, in order). OpenManus only compared content, so a model calling
 * the same tool with the same arguments and no text was never seen as stuck. Shared by
 * the run (which stamps `duplicate` on events) and the timeline (which links repeats).
 */
import type { ToolCall } from '@shared/domain/message';

/** Null when there is no text to compare (a tool-only response). */
export function contentKey(content: string | null): string | null {
  if (content === null) return null;
  const normalized = content.replace(/\s+/g, ' ').trim();
  return normalized.length > 0 ? normalized : null;
}

/** Null when the response calls no tools. */
export function toolSignature(calls: readonly ToolCall[] | undefined): string | null {
  if (!calls || calls.length === 0) return null;
  return calls
    .map((c) => `${c.function.name}(${canonicalArguments(c.function.arguments)})`)
    .join(';');
}

/**
 * The tool-call signature a repeat is judged by: none for a reply that only ends the run
 * (`terminate`). Ending is the last thing a run does, so such a repeat only comes after a
 * continuation (or a resume) starts from a run that ended the same way: a conversation
 * that ends as before repeats nothing. Its text still counts.
 */
export function repeatSignature(calls: readonly ToolCall[] | undefined): string | null {
  if (calls?.length && calls.every((c) => c.function.name === 'terminate')) return null;
  return toolSignature(calls);
}

/** Parsed-and-sorted JSON, so `{"a":1,"b":2}` and `{ "b": 2, "a": 1 }` are the same call. */
export function canonicalArguments(raw: string): string {
  const trimmed = raw.trim();
  if (trimmed === '') return '{}';
  try {
    return stableStringify(JSON.parse(trimmed));
  } catch {
    return trimmed;
  }
}

export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableStringify(record[k])}`).join(',')}}`;
}

/** a response with neither text nor tool calls: repeats of it count too */
export const EMPTY_RESPONSE_KEY = '\u0000(empty response)';

/** 53 bits of FNV-1a (two 32-bit lanes): keys are kept as numbers, not as long texts. */
function hashKey(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
}

/**
 * Which responses of a run repeat an earlier response of the same agent (the rule the
 * timeline highlights with): the run stamps `duplicate` on such `memory.appended` events,
 * so the header, the history and the CLI count the same repeats. Keeps one number per
 * distinct response, not the texts.
 */
export class DuplicateLedger {
  private readonly seen = new Map<string, Set<number>>();

  classify(
    agent: string,
    message: { content: string | null; tool_calls?: readonly ToolCall[] },
  ): 'content' | 'tool_calls' | 'both' | undefined {
    let set = this.seen.get(agent);
    if (!set) this.seen.set(agent, (set = new Set()));
    const byContent = contentKey(message.content);
    const bySignature = repeatSignature(message.tool_calls);
    const isEmpty = toolSignature(message.tool_calls) === null;
    const content = byContent ?? (isEmpty ? EMPTY_RESPONSE_KEY : null);
    const check = (key: string | null, prefix: string): boolean => {
      if (key === null) return false;
      const hash = hashKey(prefix + key);
      if (set.has(hash)) return true;
      set.add(hash);
      return false;
    };
    const isContent = check(content, 'c');
    const isCalls = check(bySignature, 's');
    if (isContent && isCalls) return 'both';
    if (isContent) return 'content';
    return isCalls ? 'tool_calls' : undefined;
  }
}
