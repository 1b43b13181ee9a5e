/**
 * Unified-diff hunks of two texts, fast enough for a 1 MB file in a step diff (issue 32:
 * < 100 ms): the common head and tail are cut off first, the rest is diffed as arrays of
 * lines (jsdiff's `diffArrays`: no tokenizing of the whole text), and the hunks with 3
 * lines of context are built here, numbered as git numbers them (an empty side starts at
 * the line before). A last line without a newline carries git's "\ No newline" marker.
 */
import { diffArrays } from 'diff';
import type { DiffHunkView } from '@shared/domain/files';

const NO_EOL = '\\ No newline at end of file';

interface Lines {
  lines: string[];
  /** the last line ends without a newline */
  isOpenEnded: boolean;
}

function split(text: string): Lines {
  if (text === '') return { lines: [], isOpenEnded: false };
  const lines = text.split('\n');
  const isOpenEnded = lines.at(-1) !== '';
  if (!isOpenEnded) lines.pop();
  return { lines, isOpenEnded };
}

type Op = { kind: ' ' | '-' | '+'; a: number; b: number };

export function lineHunks(
  aText: string,
  bText: string,
  options: { context?: number; timeoutMs?: number } = {},
): DiffHunkView[] | undefined {
  const context = options.context ?? 3;
  const a = split(aText);
  const b = split(bText);
  // a line is its text and, for the last, whether a newline ends it
  const keyA = (i: number) =>
    a.isOpenEnded && i === a.lines.length - 1 ? `${a.lines[i]}\0` : a.lines[i]!;
  const keyB = (i: number) =>
    b.isOpenEnded && i === b.lines.length - 1 ? `${b.lines[i]}\0` : b.lines[i]!;
  let head = 0;
  while (head < a.lines.length && head < b.lines.length && keyA(head) === keyB(head)) head++;
  let tail = 0;
  while (
    tail < a.lines.length - head &&
    tail < b.lines.length - head &&
    keyA(a.lines.length - 1 - tail) === keyB(b.lines.length - 1 - tail)
  ) {
    tail++;
  }
  const midA: string[] = [];
  for (let i = head; i < a.lines.length - tail; i++) midA.push(keyA(i));
  const midB: string[] = [];
  for (let i = head; i < b.lines.length - tail; i++) midB.push(keyB(i));
  const ops: Op[] = [];
  let ai = 0;
  let bi = 0;
  const keep = (count: number) => {
    for (let k = 0; k < count; k++) ops.push({ kind: ' ', a: ai++, b: bi++ });
  };
  keep(head);
  if (midA.length > 0 || midB.length > 0) {
    const changes = diffArrays(midA, midB, { timeout: options.timeoutMs ?? 2_000 });
    if (!changes) return undefined;
    for (const change of changes) {
      const count = change.value.length;
      if (change.added) for (let k = 0; k < count; k++) ops.push({ kind: '+', a: ai, b: bi++ });
      else if (change.removed) {
        for (let k = 0; k < count; k++) ops.push({ kind: '-', a: ai++, b: bi });
      } else keep(count);
    }
  }
  keep(tail);
  return group(ops, context, a, b);
}

function group(ops: readonly Op[], context: number, a: Lines, b: Lines): DiffHunkView[] {
  const hunks: DiffHunkView[] = [];
  let i = 0;
  while (i < ops.length) {
    while (i < ops.length && ops[i]!.kind === ' ') i++;
    if (i >= ops.length) break;
    const start = Math.max(0, i - context);
    let end = i; // one past the last change of the hunk
    let j = i;
    while (j < ops.length) {
      if (ops[j]!.kind !== ' ') {
        end = j + 1;
        j++;
        continue;
      }
      let run = j;
      while (run < ops.length && ops[run]!.kind === ' ') run++;
      if (run >= ops.length || run - j > 2 * context) break;
      j = run;
    }
    const stop = Math.min(ops.length, end + context);
    const lines: string[] = [];
    let oldLines = 0;
    let newLines = 0;
    for (let k = start; k < stop; k++) {
      const op = ops[k]!;
      const lastA = a.isOpenEnded && op.a === a.lines.length - 1;
      const lastB = b.isOpenEnded && op.b === b.lines.length - 1;
      if (op.kind === ' ') {
        lines.push(` ${a.lines[op.a]}`);
        oldLines++;
        newLines++;
        if (lastA && lastB) lines.push(NO_EOL);
      } else if (op.kind === '-') {
        lines.push(`-${a.lines[op.a]}`);
        oldLines++;
        if (lastA) lines.push(NO_EOL);
      } else {
        lines.push(`+${b.lines[op.b]}`);
        newLines++;
        if (lastB) lines.push(NO_EOL);
      }
    }
    const first = ops[start]!;
    hunks.push({
      oldStart: oldLines === 0 ? first.a : first.a + 1,
      oldLines,
      newStart: newLines === 0 ? first.b : first.b + 1,
      newLines,
      lines,
    });
    i = stop;
  }
  return hunks;
}
