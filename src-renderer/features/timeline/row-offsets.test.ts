import { describe, expect, it } from 'vitest';
import { RowOffsets } from './row-offsets';

/** The same answers the slow way, to check the tree against. */
function naive(sizes: number[]) {
  const offsetOf = (row: number) => sizes.slice(0, row).reduce((a, b) => a + b, 0);
  const rowAt = (offset: number) => {
    if (offset <= 0) return 0;
    for (let row = 0; row < sizes.length; row++) {
      if (offsetOf(row + 1) > offset) return row;
    }
    return sizes.length - 1;
  };
  return { offsetOf, rowAt };
}

describe('RowOffsets', () => {
  it('grown by appends in slices, answers as if built at once, also after height changes', () => {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const sizes: number[] = [];
    const offsets = new RowOffsets(0, () => 0);
    for (let slice = 0; slice < 40; slice++) {
      const added = Math.floor(random() * 70);
      const from = sizes.length;
      for (let i = 0; i < added; i++) sizes.push(1 + Math.floor(random() * 90));
      offsets.append(added, (row) => sizes[row]!);
      expect(offsets.count).toBe(sizes.length);
      // a few rows measured anew between slices, old ones too
      for (let k = 0; k < 3 && sizes.length > 0; k++) {
        const row = Math.floor(random() * sizes.length);
        sizes[row] = 1 + Math.floor(random() * 90);
        offsets.setSize(row, sizes[row]!);
      }
      const built = new RowOffsets(sizes.length, (row) => sizes[row]!);
      const check = naive(sizes);
      expect(offsets.total()).toBe(built.total());
      for (const row of [0, from, Math.floor(sizes.length / 2), sizes.length]) {
        expect(offsets.offsetOf(row)).toBe(check.offsetOf(row));
      }
      for (let probe = 0; probe < 5; probe++) {
        const at = random() * (built.total() + 20) - 10;
        expect(offsets.rowAt(at)).toBe(built.rowAt(at));
      }
    }
  });

  it('gives offsets, totals and the row at an offset', () => {
    const offsets = new RowOffsets(3, () => 10);
    expect(offsets.offsetOf(0)).toBe(0);
    expect(offsets.offsetOf(2)).toBe(20);
    expect(offsets.total()).toBe(30);
    expect(offsets.rowAt(-5)).toBe(0);
    expect(offsets.rowAt(9.5)).toBe(0);
    expect(offsets.rowAt(10)).toBe(1); // a row's first pixel belongs to it
    expect(offsets.rowAt(29)).toBe(2);
    expect(offsets.rowAt(1_000)).toBe(2);
  });

  it('an empty list answers without failing', () => {
    const offsets = new RowOffsets(0, () => 10);
    expect(offsets.total()).toBe(0);
    expect(offsets.rowAt(50)).toBe(0);
    expect(offsets.setSize(0, 5)).toBe(0);
  });

  it('matches a plain sum after random height changes, at every size', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const count of [1, 2, 3, 7, 8, 9, 100, 257]) {
      const sizes = Array.from({ length: count }, () => 1 + Math.floor(random() * 300));
      const offsets = new RowOffsets(count, (row) => sizes[row]!);
      for (let change = 0; change < 50; change++) {
        const row = Math.floor(random() * count);
        const size = 1 + Math.floor(random() * 300);
        expect(offsets.setSize(row, size)).toBe(size - sizes[row]!);
        sizes[row] = size;
      }
      const slow = naive(sizes);
      for (let row = 0; row <= count; row++) expect(offsets.offsetOf(row)).toBe(slow.offsetOf(row));
      const total = slow.offsetOf(count);
      for (let offset = 0; offset < total + 20; offset += 13) {
        expect(offsets.rowAt(offset)).toBe(slow.rowAt(offset));
      }
      expect(offsets.size(count - 1)).toBe(sizes[count - 1]);
    }
  });
});
