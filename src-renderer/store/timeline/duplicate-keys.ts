/**
 * Keys that make two assistant responses "the same" for duplicate highlighting: the
 * content (whitespace-normalised), and the tool-call signature (each call's name and
 * canonical arguments, in order). OpenManus only compared content, so a model calling
 * the same tool with the same arguments and no text was never seen as stuck.
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
