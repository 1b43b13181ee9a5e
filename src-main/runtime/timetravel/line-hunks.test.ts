/**
 * lineHunks against jsdiff's own patch applier: for random edits of random texts (lines
 * added, removed, changed, the last newline added or removed, empty sides), the hunks
 * turn the old text into the new one exactly.
 */
import { applyPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { lineHunks } from './line-hunks';

function unified(a: string, b: string): string {
  const hunks = lineHunks(a, b)!;
  const body = hunks
    .map((h) => {
      // jsdiff numbers an empty side from the line after, as its own patches do
      const oldStart = h.oldLines === 0 ? h.oldStart + 1 : h.oldStart;
      const newStart = h.newLines === 0 ? h.newStart + 1 : h.newStart;
      return `@@ -${oldStart},${h.oldLines} +${newStart},${h.newLines} @@\n${h.lines.join('\n')}\n`;
    })
    .join('');
  return `--- a\n+++ b\n${body}`;
}

function random(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

describe('lineHunks', () => {
  it('turns the old text into the new one for random edits', () => {
    const rnd = random(7);
    for (let round = 0; round < 300; round++) {
      const count = Math.floor(rnd() * 30);
      const a = Array.from({ length: count }, () => `l${Math.floor(rnd() * 8)}`);
      const b = a.flatMap((line) => {
        const r = rnd();
        if (r < 0.1) return [];
        if (r < 0.2) return [line, `new${Math.floor(rnd() * 5)}`];
        if (r < 0.3) return [`changed${Math.floor(rnd() * 5)}`];
        return [line];
      });
      const aText = a.join('\n') + (rnd() < 0.5 && a.length > 0 ? '\n' : '');
      const bText = b.join('\n') + (rnd() < 0.5 && b.length > 0 ? '\n' : '');
      const patched = applyPatch(aText, unified(aText, bText));
      expect(patched, `round ${round}: ${JSON.stringify([aText, bText])}`).toBe(bText);
    }
  });

  it('numbers hunks as git does and marks a missing last newline', () => {
    expect(lineHunks('', 'a\n')).toEqual([
      { oldStart: 0, oldLines: 0, newStart: 1, newLines: 1, lines: ['+a'] },
    ]);
    expect(lineHunks('x\ny', 'x\ny\n')).toEqual([
      {
        oldStart: 1,
        oldLines: 2,
        newStart: 1,
        newLines: 2,
        lines: [' x', '-y', '\\ No newline at end of file', '+y'],
      },
    ]);
    expect(lineHunks('same\n', 'same\n')).toEqual([]);
  });
});
