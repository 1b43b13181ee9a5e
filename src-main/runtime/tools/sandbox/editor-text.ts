/**
 * The text side of `str_replace_editor`, as pure functions: `cat -n` style numbering,
 * the clipped response, exact unique-match replacement and line insertion. Unlike the
 * original, tabs are never expanded: a replacement changes only the matched text (the
 * original rewrote every tab of the file, which breaks Makefiles).
 */

export const MAX_RESPONSE_CHARS = 16_000;
export const SNIPPET_LINES = 4;

const CLIPPED_NOTE =
  '<response clipped><NOTE>To save on context only part of this file has been shown to you. ' +
  'Search inside the file with `grep -n` (bash) to find the line numbers you need, then view ' +
  'that range with view_range.</NOTE>';

export function clip(text: string, max = MAX_RESPONSE_CHARS): string {
  return text.length <= max ? text : text.slice(0, max) + CLIPPED_NOTE;
}

/** Lines of a text; a final newline does not make an extra empty line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** `cat -n` output: 6-wide line numbers, a tab, the line. */
export function numbered(lines: string[], firstLine = 1): string {
  return lines.map((line, i) => `${String(i + firstLine).padStart(6)}\t${line}`).join('\n');
}

export function catN(text: string, label: string, firstLine = 1): string {
  return clip(
    `Here's the result of running \`cat -n\` on ${label}:\n${numbered(splitLines(text), firstLine)}\n`,
  );
}

export type ViewRange = [number, number];

/** The lines of `view_range` ([start, end], 1-based, end -1 = to the end), or a reason. */
export function selectRange(
  text: string,
  range: ViewRange,
): { lines: string[]; first: number } | { error: string } {
  const lines = splitLines(text);
  const [start, end] = range;
  const count = lines.length;
  if (start < 1 || start > Math.max(count, 1)) {
    return {
      error: `Invalid \`view_range\`: ${JSON.stringify(range)}. Its first element \`${start}\` should be within the range of lines of the file: [1, ${count}]`,
    };
  }
  if (end !== -1 && end > count) {
    return {
      error: `Invalid \`view_range\`: ${JSON.stringify(range)}. Its second element \`${end}\` should be smaller than the number of lines in the file: \`${count}\``,
    };
  }
  if (end !== -1 && end < start) {
    return {
      error: `Invalid \`view_range\`: ${JSON.stringify(range)}. Its second element \`${end}\` should be larger or equal than its first \`${start}\``,
    };
  }
  return { lines: lines.slice(start - 1, end === -1 ? count : end), first: start };
}

/** Replaces the only occurrence of `oldStr`; zero or several occurrences are refused. */
export function replaceUnique(
  text: string,
  oldStr: string,
  newStr: string,
  label: string,
): { text: string; line: number } | { error: string } {
  if (oldStr === '') return { error: 'Parameter `old_str` must not be empty.' };
  const first = text.indexOf(oldStr);
  if (first < 0) {
    return {
      error: `No replacement was performed, old_str \`${oldStr}\` did not appear verbatim in ${label}.`,
    };
  }
  const positions: number[] = [];
  for (let at = first; at >= 0; at = text.indexOf(oldStr, at + 1)) positions.push(at);
  if (positions.length > 1) {
    const lines = positions.map((p) => lineOf(text, p));
    return {
      error: `No replacement was performed. Multiple occurrences of old_str \`${oldStr}\` in lines ${JSON.stringify(lines)}. Please ensure it is unique.`,
    };
  }
  return {
    text: text.slice(0, first) + newStr + text.slice(first + oldStr.length),
    line: lineOf(text, first),
  };
}

/** Inserts `newStr` after line `after` (0 = at the top). */
export function insertAfter(
  text: string,
  after: number,
  newStr: string,
): { text: string } | { error: string } {
  const lines = splitLines(text);
  if (!Number.isInteger(after) || after < 0 || after > lines.length) {
    return {
      error: `Invalid \`insert_line\` parameter: ${after}. It should be within the range of lines of the file: [0, ${lines.length}]`,
    };
  }
  const inserted = splitLines(newStr.endsWith('\n') ? newStr : `${newStr}\n`);
  const result = [...lines.slice(0, after), ...inserted, ...lines.slice(after)];
  const hadFinalNewline = text === '' || text.endsWith('\n');
  return { text: result.join('\n') + (hadFinalNewline ? '\n' : '') };
}

/** A few lines around an edit, numbered, for the model to check the result. */
export function snippetAround(
  text: string,
  line: number,
  spanLines: number,
  label: string,
): string {
  const lines = splitLines(text);
  const first = Math.max(1, line - SNIPPET_LINES);
  const last = Math.min(lines.length, line + spanLines + SNIPPET_LINES);
  return `Here's the result of running \`cat -n\` on a snippet of ${label}:\n${numbered(lines.slice(first - 1, last), first)}\n`;
}

/** 1-based line number of a character offset. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

export function countNewlines(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) count++;
  return count;
}
