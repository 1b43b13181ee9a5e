/**
 * Text differences for the compare view and `runs diff`, on jsdiff (the `diff` package):
 * word level for prose (replies, messages, short arguments), line level for code and
 * tool output. Very large or very different texts are not diffed token by token (that
 * is quadratic): past a size or time limit the whole text counts as replaced.
 */
import { diffLines, diffWords } from 'diff';
import { argsText, canonicalJson } from './step-fields';

export type DiffMode = 'words' | 'lines';

export interface DiffPart {
  text: string;
  kind: 'same' | 'added' | 'removed';
}

/** above this many characters (both sides together) a word diff becomes a line diff */
const WORD_DIFF_LIMIT = 20_000;
/** above this, or after DIFF_TIMEOUT_MS, the texts are shown as replaced wholesale */
const LINE_DIFF_LIMIT = 2_000_000;
const DIFF_TIMEOUT_MS = 250;

export function diffText(a: string, b: string, mode: DiffMode): DiffPart[] {
  if (a === b) return a ? [{ text: a, kind: 'same' }] : [];
  const size = a.length + b.length;
  const effective: DiffMode = mode === 'words' && size > WORD_DIFF_LIMIT ? 'lines' : mode;
  const changes =
    size > LINE_DIFF_LIMIT
      ? undefined
      : effective === 'words'
        ? diffWords(a, b, { timeout: DIFF_TIMEOUT_MS })
        : diffLines(withEol(a), withEol(b), { timeout: DIFF_TIMEOUT_MS });
  if (!changes) return replaced(a, b);
  return changes
    .filter((c) => c.value.length > 0)
    .map((c) => ({ text: c.value, kind: c.added ? 'added' : c.removed ? 'removed' : 'same' }));
}

/** A last line without its newline would otherwise differ from the same line with one. */
const withEol = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);

function replaced(a: string, b: string): DiffPart[] {
  const parts: DiffPart[] = [];
  if (a) parts.push({ text: a, kind: 'removed' });
  if (b) parts.push({ text: b, kind: 'added' });
  return parts;
}

/** Prose is diffed by words; anything with several lines (code, output) by lines. */
export function modeFor(a: string, b: string): DiffMode {
  return a.includes('\n') || b.includes('\n') ? 'lines' : 'words';
}

/** One argument of a tool call, compared by name. */
export interface ArgDiff {
  key: string;
  isChanged: boolean;
  /** undefined when this side has no such argument */
  a?: string;
  b?: string;
  mode: DiffMode;
}

/** An argument value as shown: strings as they are (code stays readable), others as JSON. */
function valueText(value: unknown): string {
  return typeof value === 'string' ? value : argsText(value);
}

function asObject(args: unknown): Record<string, unknown> | null {
  if (typeof args === 'object' && args !== null && !Array.isArray(args)) {
    return args as Record<string, unknown>;
  }
  return null;
}

/**
 * Tool arguments compared argument by argument (objects), or as one text when either
 * side is not an object (raw text that did not parse, an array).
 */
export function diffArgs(a: unknown, b: unknown): ArgDiff[] {
  // a side without the call (a step only one run has) lists the other side's arguments
  const oa = asObject(a) ?? (a === undefined && asObject(b) ? {} : null);
  const ob = asObject(b) ?? (b === undefined && asObject(a) ? {} : null);
  if (!oa || !ob) {
    const ta = a === undefined ? undefined : argsText(a);
    const tb = b === undefined ? undefined : argsText(b);
    return [
      {
        key: '',
        isChanged: ta !== tb,
        ...(ta !== undefined ? { a: ta } : {}),
        ...(tb !== undefined ? { b: tb } : {}),
        mode: modeFor(ta ?? '', tb ?? ''),
      },
    ];
  }
  const keys = [...new Set([...Object.keys(oa), ...Object.keys(ob)])];
  return keys.map((key) => {
    const ta = key in oa ? valueText(oa[key]) : undefined;
    const tb = key in ob ? valueText(ob[key]) : undefined;
    return {
      key,
      // compared as JSON, so the string "1" and the number 1 are not the same argument
      isChanged:
        (key in oa ? canonicalJson(oa[key]) : undefined) !==
        (key in ob ? canonicalJson(ob[key]) : undefined),
      ...(ta !== undefined ? { a: ta } : {}),
      ...(tb !== undefined ? { b: tb } : {}),
      mode: modeFor(ta ?? '', tb ?? ''),
    };
  });
}
