import { describe, expect, it } from 'vitest';
import type { AlignedRow } from '@shared/compare/types';
import { foldOf, foldRows } from './fold-rows';

const rows = (pattern: string): AlignedRow[] =>
  [...pattern].map((c) => ({
    status: c === '=' ? 'same' : c === '^' ? 'shared' : 'changed',
    a: 0,
    b: 0,
  }));

const picture = (display: ReturnType<typeof foldRows>) =>
  display.items.map((i) => (i.kind === 'row' ? String(i.row) : `[${i.from}-${i.to}]`)).join(' ');

describe('folding identical rows', () => {
  it('folds long stretches of identical rows, keeping one row of context on each side', () => {
    const display = foldRows(rows('========~=======~=='), new Set());
    expect(picture(display)).toBe('0 [1-6] 7 8 9 [10-14] 15 16 17 18');
    expect(display.positionOfRow[8]).toBe(3);
    expect(display.positionOfRow[3]).toBe(-1);
    expect(foldOf(display, 3)).toEqual({ kind: 'fold', from: 1, to: 6 });
    expect(foldOf(display, 8)).toBeUndefined();
  });

  it('leaves short stretches alone and keeps opened folds open', () => {
    expect(picture(foldRows(rows('====~^^^~'), new Set()))).toBe('0 1 2 3 4 5 6 7 8');
    expect(picture(foldRows(rows('========~'), new Set([1])))).toBe('0 1 2 3 4 5 6 7 8');
  });
});
