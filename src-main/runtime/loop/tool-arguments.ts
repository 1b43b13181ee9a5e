/**
 * Parsing the `arguments` string of a tool call. Models send truncated JSON, trailing
 * commas, single quotes, fenced code, double-encoded strings, arrays, `null`, megabytes,
 * lone surrogates (reliability.md L1). Each of those is refused here with a reason the
 * model can act on; nothing is guessed or repaired, so a tool never runs on arguments
 * the model did not actually send.
 */
import type { ToolCall } from '@shared/domain/message';

export type ParsedArguments =
  { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/** Larger argument strings are refused before parsing. */
export const MAX_ARGUMENT_CHARS = 512 * 1024;

export function parseArguments(raw: string): ParsedArguments {
  if (typeof raw !== 'string') return { ok: false, error: 'the arguments are not a string' };
  // Some models send "" for a call without parameters; the tool's schema decides.
  if (raw.trim() === '') return { ok: true, value: {} };
  if (raw.length > MAX_ARGUMENT_CHARS) {
    return {
      ok: false,
      error: `the arguments are too large (${raw.length} characters, the limit is ${MAX_ARGUMENT_CHARS})`,
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    const hint = /^\s*```/.test(raw)
      ? ' (they are wrapped in a markdown code fence)'
      : raw.length > 0 && !/[}\]]\s*$/.test(raw)
        ? ' (they look cut off)'
        : '';
    return { ok: false, error: `invalid JSON${hint}: ${(error as Error).message}` };
  }
  if (typeof value === 'string') {
    return {
      ok: false,
      error: 'expected a JSON object, got a JSON string (double-encoded arguments?)',
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
    return { ok: false, error: `expected a JSON object, got ${kind}` };
  }
  const badPath = illFormedString(value, '');
  if (badPath !== null) {
    return {
      ok: false,
      error: `the value at ${badPath || '(arguments)'} contains a lone UTF-16 surrogate (not valid Unicode text)`,
    };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** Path of the first string (key or value) that is not well-formed Unicode, or null. */
function illFormedString(value: unknown, path: string): string | null {
  if (typeof value === 'string') return isWellFormed(value) ? null : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = illFormedString(value[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (!isWellFormed(key)) return at;
      const found = illFormedString(inner, at);
      if (found !== null) return found;
    }
  }
  return null;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/**
 * Arguments too large to run (tool-arguments.ts) are also too large to resend with every
 * later request: memory keeps a short JSON note in their place. The call itself still
 * gets the real string, and is refused with the reason.
 */
export function shrinkArguments(call: ToolCall): ToolCall {
  const args = call.function.arguments;
  if (args.length <= MAX_ARGUMENT_CHARS) return call;
  const note = `${args.length} characters of arguments, too large to keep: ${args.slice(0, 200)}...`;
  return {
    ...call,
    function: { name: call.function.name, arguments: JSON.stringify({ dropped: note }) },
  };
}
