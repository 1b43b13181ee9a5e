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
  private tree: Float64Array;
  private sizes: Float64Array;
  private rows: number;
  /** the largest power of two not above count: where the search for an offset starts */
  private topBit = 0;

  constructor(count: number, sizeOf: (row: number) => number) {
    this.rows = count;
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
    this.setTopBit();
  }

  get count(): number {
    return this.rows;
  }

  /**
   * Adds rows at the end (a loading run's next slice): O(log n) a row, the arrays grown
   * by doubling, so a slice costs what its own rows cost, not what the list holds.
   */
  append(added: number, sizeOf: (row: number) => number): void {
    const count = this.rows + added;
    if (count > this.sizes.length) {
      const capacity = Math.max(count, this.sizes.length * 2, 64);
      const sizes = new Float64Array(capacity);
      sizes.set(this.sizes.subarray(0, this.rows));
      const tree = new Float64Array(capacity + 1);
      tree.set(this.tree.subarray(0, this.rows + 1));
      this.sizes = sizes;
      this.tree = tree;
    }
    for (let i = this.rows + 1; i <= count; i++) {
      const size = sizeOf(i - 1);
      this.sizes[i - 1] = size;
      // tree[i] covers (i - lowbit(i), i]: this row and the nodes that cover the rest
      let sum = size;
      const low = i - (i & -i);
      for (let j = i - 1; j > low; j -= j & -j) sum += this.tree[j]!;
      this.tree[i] = sum;
    }
    this.rows = count;
    this.setTopBit();
  }

  private setTopBit(): void {
    let bit = 1;
    while (bit * 2 <= this.rows) bit *= 2;
    this.topBit = this.rows > 0 ? bit : 0;
  }

  size(row: number): number {
    return row >= 0 && row < this.rows ? this.sizes[row]! : 0;
  }

  /** Sets a row's height; returns by how much it changed. */
  setSize(row: number, size: number): number {
    if (row < 0 || row >= this.rows) return 0;
    const delta = size - this.sizes[row]!;
    if (delta === 0) return 0;
    this.sizes[row] = size;
    for (let i = row + 1; i <= this.rows; i += i & -i) this.tree[i] = this.tree[i]! + delta;
    return delta;
  }

  /** Where the row starts: the sum of the heights of the rows before it. */
  offsetOf(row: number): number {
    let sum = 0;
    for (let i = Math.max(0, Math.min(row, this.rows)); i > 0; i -= i & -i) sum += this.tree[i]!;
    return sum;
  }

  total(): number {
    return this.offsetOf(this.rows);
  }

  /** The row that covers this offset (the first row at or before 0, the last past the end). */
  rowAt(offset: number): number {
    if (this.rows === 0 || offset <= 0) return 0;
    let row = 0;
    let left = offset;
    for (let bit = this.topBit; bit > 0; bit >>= 1) {
      const next = row + bit;
      if (next <= this.rows && this.tree[next]! <= left) {
        row = next;
        left -= this.tree[next]!;
      }
    }
    return Math.min(row, this.rows - 1);
  }
}
