/**
 * Where each row of the timeline starts, as a Fenwick tree of row heights: a row's
 * offset, the row at an offset and a row's new height each cost O(log n).
 *
 * The list virtualizer used before kept a flat array of offsets and laid it out again
 * from the first newly measured row to the end of the list. Scrolling a 10,000-step run
 * measures new rows every frame, so every frame walked tens of thousands of rows (about
 * 3 ms of script per frame, measured in the ui benchmark's traces).
 */
export class RowOffsets {
  /** 1-based: tree[i] holds the sum of the heights of rows (i - lowbit(i), i] */
  private readonly tree: Float64Array;
  private readonly sizes: Float64Array;
  /** the largest power of two not above count: where the search for an offset starts */
  private readonly topBit: number;

  constructor(
    readonly count: number,
    sizeOf: (row: number) => number,
  ) {
    this.sizes = new Float64Array(count);
    this.tree = new Float64Array(count + 1);
    // linear construction: each node adds itself into its parent once
    for (let i = 1; i <= count; i++) {
      const size = sizeOf(i - 1);
      this.sizes[i - 1] = size;
      this.tree[i] = this.tree[i]! + size;
      const parent = i + (i & -i);
      if (parent <= count) this.tree[parent] = this.tree[parent]! + this.tree[i]!;
    }
    let bit = 1;
    while (bit * 2 <= count) bit *= 2;
    this.topBit = count > 0 ? bit : 0;
  }

  size(row: number): number {
    return this.sizes[row] ?? 0;
  }

  /** Sets a row's height; returns by how much it changed. */
  setSize(row: number, size: number): number {
    if (row < 0 || row >= this.count) return 0;
    const delta = size - this.sizes[row]!;
    if (delta === 0) return 0;
    this.sizes[row] = size;
    for (let i = row + 1; i <= this.count; i += i & -i) this.tree[i] = this.tree[i]! + delta;
    return delta;
  }

  /** Where the row starts: the sum of the heights of the rows before it. */
  offsetOf(row: number): number {
    let sum = 0;
    for (let i = Math.max(0, Math.min(row, this.count)); i > 0; i -= i & -i) sum += this.tree[i]!;
    return sum;
  }

  total(): number {
    return this.offsetOf(this.count);
  }

  /** The row that covers this offset (the first row at or before 0, the last past the end). */
  rowAt(offset: number): number {
    if (this.count === 0 || offset <= 0) return 0;
    let row = 0;
    let left = offset;
    for (let bit = this.topBit; bit > 0; bit >>= 1) {
      const next = row + bit;
      if (next <= this.count && this.tree[next]! <= left) {
        row = next;
        left -= this.tree[next]!;
      }
    }
    return Math.min(row, this.count - 1);
  }
}
