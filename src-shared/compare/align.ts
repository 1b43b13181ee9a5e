/**
 * Step alignment of two runs: a global sequence alignment (Needleman-Wunsch) over their
 * steps, so that a step one run inserted or skipped does not shift every later pair.
 *
 * Cost model (lower is better; the alignment minimises the sum):
 *
 * | pair                                                 | cost                          |
 * | ---------------------------------------------------- | ----------------------------- |
 * | the same step (same kind, agent and every field)     | 0                             |
 * | same signature (roles + tool names), fields differ   | 5 + 5 × share of fields that differ (5..10) |
 * | different signature                                  | 30                            |
 * | a step only one run has (a gap)                      | 20                            |
 * | `start`/`end` against a step of another kind         | never                         |
 *
 * So a changed step stays paired with its counterpart (≤ 10 < two gaps = 40), even one
 * that called other tools (30 < 40); but an inserted step costs one gap (20) rather than
 * shifting the steps after it, which would cost at least 5 per shifted pair plus a gap.
 *
 * Speed: steps identical at both ends are paired first; the rest is split at anchors,
 * steps identical and unique in both runs, in order (patience diff), recursively; only
 * the stretches between anchors go through the dynamic programme. A stretch larger
 * than `cellBudget` cells is aligned in a band around its diagonal (wide enough for the
 * length difference), which keeps two unrelated 10,000-step runs near-linear.
 */
import {
  changedFields,
  changedShare,
  INF,
  StepTables,
  type FieldList,
  type Prepared,
} from './align-steps';
import { signatureOf, stepFields } from './step-fields';
import type { AlignedRow, StepDigest, StepKind } from './types';

/** What the alignment reads of a step besides its fields (a digest or a stored head). */
export interface AlignableStep {
  kind: StepKind;
  step: number;
  agent: string;
}

/**
 * A step's comparable fields (name and text, or a hash of the text: only equality is
 * compared; a Map or a list of pairs, read once) and its signature (step-fields.ts
 * `signatureOf`).
 */
export type StepView<S> = (step: S) => { fields: FieldList; signature: string };

const digestView: StepView<StepDigest> = (step) => ({
  fields: stepFields(step),
  signature: signatureOf(step),
});

export const ALIGNMENT_COSTS = {
  same: 0,
  changedBase: 5,
  changedSpan: 5,
  otherSignature: 30,
  gap: 20,
} as const;

export interface AlignOptions {
  /**
   * A fork and its parent: A's steps up to this step number (and the start) are shared.
   * B's copies of them (if its history holds them) pair in order; the ones it lacks are
   * `shared` rows.
   */
  sharedPrefix?: number;
  /** largest stretch (cells) aligned exactly; larger ones use a band */
  cellBudget?: number;
}

/** 1,000 × 1,000 steps exactly; beyond, a band around the diagonal (±50 steps for 10,000) */
const DEFAULT_CELL_BUDGET = 1_000_000;

/** The cost of pairing A's step i with B's step j whose keys differ (see the table above). */
function changedCost(a: Prepared, i: number, b: Prepared, j: number): number {
  if (a.kind[i] !== b.kind[j]) return INF;
  if (a.sig[i] !== b.sig[j]) return ALIGNMENT_COSTS.otherSignature;
  const share = changedShare(a, i, b, j);
  return ALIGNMENT_COSTS.changedBase + Math.round(ALIGNMENT_COSTS.changedSpan * share);
}

type Pair = [a: number, b: number];

export function alignSteps(
  stepsA: readonly StepDigest[],
  stepsB: readonly StepDigest[],
  options: AlignOptions = {},
): AlignedRow[] {
  return alignWith(stepsA, stepsB, digestView, options);
}

/**
 * The rows found so far, as two flat lists of step indexes (-1: no step on that side):
 * no array per pair while aligning.
 */
class PairList {
  readonly a: number[] = [];
  readonly b: number[] = [];
  push(i: number, j: number): void {
    this.a.push(i);
    this.b.push(j);
  }
  get length(): number {
    return this.a.length;
  }
  /** Reverses the pairs from `from` on (a traceback adds them last first). */
  reverseFrom(from: number): void {
    for (let x = from, y = this.a.length - 1; x < y; x++, y--) {
      const i = this.a[x]!;
      const j = this.b[x]!;
      this.a[x] = this.a[y]!;
      this.b[x] = this.b[y]!;
      this.a[y] = i;
      this.b[y] = j;
    }
  }
}

/** Pending work, last first: five numbers a task (REGION i0 i1 j0 j1, or PAIR i j 0 0). */
const REGION = 0;
const PAIR = 1;

/**
 * The alignment over any form of steps that says their fields: the digests themselves,
 * or their stored heads (step-head.ts), whose fields are hashes of the texts.
 */
export function alignWith<S extends AlignableStep>(
  stepsA: readonly S[],
  stepsB: readonly S[],
  view: StepView<S>,
  options: AlignOptions = {},
): AlignedRow[] {
  const tables = new StepTables();
  const a = tables.prepare(stepsA, view);
  const b = tables.prepare(stepsB, view);
  const budget = options.cellBudget ?? DEFAULT_CELL_BUDGET;
  const pairs = new PairList();
  const shared: number[] = [];

  let a0 = 0;
  let b0 = 0;
  if (options.sharedPrefix !== undefined) {
    const inPrefix = (s: S) =>
      s.kind === 'start' || (s.kind !== 'end' && s.step <= options.sharedPrefix!);
    while (a0 < stepsA.length && inPrefix(stepsA[a0]!)) {
      const next = stepsB[b0];
      if (next && inPrefix(next) && next.kind === stepsA[a0]!.kind) {
        pairs.push(a0, b0++);
      } else {
        shared.push(pairs.length);
        pairs.push(a0, -1);
      }
      a0++;
    }
  }

  const stack: number[] = [REGION, a0, stepsA.length, b0, stepsB.length];
  const counts = new KeyCounter(tables.keyCount);
  while (stack.length > 0) {
    let j1 = stack.pop()!;
    let j0 = stack.pop()!;
    let i1 = stack.pop()!;
    let i0 = stack.pop()!;
    if (stack.pop()! === PAIR) {
      pairs.push(i0, i1);
      continue;
    }
    // equal steps at the start: output now (this task is the earliest pending output)
    while (i0 < i1 && j0 < j1 && a.key[i0] === b.key[j0]) pairs.push(i0++, j0++);
    // equal steps at the end: output after the middle (pushed first, popped last)
    while (i0 < i1 && j0 < j1 && a.key[i1 - 1] === b.key[j1 - 1]) {
      i1--;
      j1--;
      stack.push(PAIR, i1, j1, 0, 0);
    }
    if (i0 === i1 || j0 === j1) {
      for (let i = i0; i < i1; i++) pairs.push(i, -1);
      for (let j = j0; j < j1; j++) pairs.push(-1, j);
      continue;
    }
    const anchors = uniqueAnchors(a.key, i0, i1, b.key, j0, j1, counts);
    if (anchors.length === 0) {
      alignBand(a, b, i0, i1, j0, j1, budget, pairs);
      continue;
    }
    // regions between anchors, in order, pushed in reverse so the first pops first
    stack.push(REGION, anchors.at(-1)![0] + 1, i1, anchors.at(-1)![1] + 1, j1);
    for (let t = anchors.length - 1; t >= 0; t--) {
      const [ai, bj] = anchors[t]!;
      const pi = t > 0 ? anchors[t - 1]![0] + 1 : i0;
      const pj = t > 0 ? anchors[t - 1]![1] + 1 : j0;
      stack.push(PAIR, ai, bj, 0, 0, REGION, pi, ai, pj, bj);
    }
  }

  const isShared = new Set(shared);
  const rows = new Array<AlignedRow>(pairs.length);
  for (let index = 0; index < pairs.length; index++) {
    const i = pairs.a[index]!;
    const j = pairs.b[index]!;
    if (isShared.has(index)) rows[index] = { status: 'shared', a: i, b: null };
    else if (j < 0) rows[index] = { status: 'only-a', a: i, b: null };
    else if (i < 0) rows[index] = { status: 'only-b', a: null, b: j };
    else if (a.key[i] === b.key[j]) rows[index] = { status: 'same', a: i, b: j };
    else {
      rows[index] = { status: 'changed', a: i, b: j, fields: changedFields(tables, a, i, b, j) };
    }
  }
  return rows;
}

/** Counts keys per region without clearing arrays between regions (a generation stamp). */
class KeyCounter {
  readonly countA: Int32Array;
  readonly countB: Int32Array;
  readonly posA: Int32Array;
  readonly posB: Int32Array;
  readonly stamp: Int32Array;
  generation = 0;
  constructor(size: number) {
    this.countA = new Int32Array(size);
    this.countB = new Int32Array(size);
    this.posA = new Int32Array(size);
    this.posB = new Int32Array(size);
    this.stamp = new Int32Array(size);
  }
  touch(key: number): void {
    if (this.stamp[key] === this.generation) return;
    this.stamp[key] = this.generation;
    this.countA[key] = 0;
    this.countB[key] = 0;
  }
}

/**
 * Steps identical and unique in both regions, as (i, j) pairs increasing in both: the
 * longest increasing run of them (patience sorting).
 */
function uniqueAnchors(
  keyA: Int32Array,
  i0: number,
  i1: number,
  keyB: Int32Array,
  j0: number,
  j1: number,
  c: KeyCounter,
): Pair[] {
  c.generation++;
  for (let i = i0; i < i1; i++) {
    const k = keyA[i]!;
    c.touch(k);
    c.countA[k]!++;
    c.posA[k] = i;
  }
  for (let j = j0; j < j1; j++) {
    const k = keyB[j]!;
    c.touch(k);
    c.countB[k]!++;
    c.posB[k] = j;
  }
  const candidates: Pair[] = [];
  for (let i = i0; i < i1; i++) {
    const k = keyA[i]!;
    if (c.countA[k] === 1 && c.countB[k] === 1) candidates.push([i, c.posB[k]!]);
  }
  if (candidates.length === 0) return [];
  // longest increasing subsequence of j over candidates ordered by i
  const tails: number[] = [];
  const previous = new Int32Array(candidates.length).fill(-1);
  for (let t = 0; t < candidates.length; t++) {
    const j = candidates[t]![1];
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (candidates[tails[mid]!]![1] < j) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[t] = tails[lo - 1]!;
    tails[lo] = t;
  }
  const out: Pair[] = [];
  for (let t = tails.at(-1)!; t >= 0; t = previous[t]!) out.push(candidates[t]!);
  return out.reverse();
}

/**
 * Exact alignment of a stretch, or, past the budget, in a band around its diagonal; its
 * pairs are added to `out`. Ties prefer pairing, then A's step alone, so equal inputs
 * give equal outputs.
 */
function alignBand(
  a: Prepared,
  b: Prepared,
  i0: number,
  i1: number,
  j0: number,
  j1: number,
  budget: number,
  out: PairList,
): void {
  const n = i1 - i0;
  const m = j1 - j0;
  const { gap, same } = ALIGNMENT_COSTS;
  const keyA = a.key;
  const keyB = b.key;
  const isFull = (n + 1) * (m + 1) <= budget;
  const width = isFull ? m : Math.max(Math.ceil(budget / (2 * (n + 1))), Math.ceil(m / n) + 2);
  const lo = new Int32Array(n + 1);
  const hi = new Int32Array(n + 1);
  const offset = new Float64Array(n + 2);
  for (let i = 0; i <= n; i++) {
    const center = Math.round((i * m) / n);
    lo[i] = isFull ? 0 : Math.max(0, center - width);
    hi[i] = isFull ? m : Math.min(m, center + width);
    offset[i + 1] = offset[i]! + (hi[i]! - lo[i]! + 1);
  }
  // 1 = pair, 2 = A's step alone, 3 = B's step alone
  const moves = new Uint8Array(offset[n + 1]!);
  let prev = new Int32Array(m + 1);
  let cur = new Int32Array(m + 1);
  for (let j = lo[0]!; j <= hi[0]!; j++) {
    prev[j] = j * gap;
    moves[j - lo[0]!] = 3;
  }
  for (let i = 1; i <= n; i++) {
    const plo = lo[i - 1]!;
    const phi = hi[i - 1]!;
    const rowLo = lo[i]!;
    const rowHi = hi[i]!;
    const base = offset[i]! - rowLo;
    const ai = i0 + i - 1;
    const keyI = keyA[ai]!;
    for (let j = rowLo; j <= rowHi; j++) {
      let best = INF;
      let move = 0;
      if (j > 0 && j - 1 >= plo && j - 1 <= phi && prev[j - 1]! < INF) {
        const bj = j0 + j - 1;
        const c = keyI === keyB[bj] ? same : changedCost(a, ai, b, bj);
        if (c < INF) {
          best = prev[j - 1]! + c;
          move = 1;
        }
      }
      if (j >= plo && j <= phi && prev[j]! + gap < best) {
        best = prev[j]! + gap;
        move = 2;
      }
      if (j > rowLo && cur[j - 1]! + gap < best) {
        best = cur[j - 1]! + gap;
        move = 3;
      }
      cur[j] = best;
      moves[base + j] = move;
    }
    [prev, cur] = [cur, prev];
  }
  const from = out.length;
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const move = i === 0 ? 3 : moves[offset[i]! - lo[i]! + j]!;
    if (move === 1) out.push(i0 + --i, j0 + --j);
    else if (move === 2) out.push(i0 + --i, -1);
    else out.push(-1, j0 + --j);
  }
  out.reverseFrom(from);
}
