/**
 * The alignment as it was before issue 27's rework of its preparation (a string key and a
 * Map of fields per step, a closure per cost), kept verbatim for tests only: the new
 * alignment (../align.ts) must give exactly its rows.
 */
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
  differingFields,
  dissimilarity,
  signatureOf,
  stepFields,
  type StepFields,
} from '../step-fields';
import type { AlignedRow, StepDigest, StepKind } from '../types';

/** What the alignment reads of a step besides its fields (a digest or a stored head). */
export interface AlignableStep {
  kind: StepKind;
  step: number;
  agent: string;
}

/**
 * A step's comparable fields (name -> text, or a hash of the text: only equality is
 * compared) and its signature (step-fields.ts `signatureOf`).
 */
export type StepView<S> = (step: S) => { fields: StepFields; signature: string };

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
const INF = 1_000_000_000;
const KINDS = { start: 0, step: 1, interlude: 1, end: 2 } as const;

interface Prepared {
  fields: StepFields[];
  key: Int32Array;
  sig: Int32Array;
  kind: Uint8Array;
  /** field names of each step, interned: equal shape = same field names in order */
  shape: Int32Array;
  /** each field's text, interned, in the order of its names */
  values: Int32Array[];
}

function intern(table: Map<string, number>, text: string): number {
  let id = table.get(text);
  if (id === undefined) {
    id = table.size;
    table.set(text, id);
  }
  return id;
}

function prepare<S extends AlignableStep>(
  steps: readonly S[],
  view: StepView<S>,
  tables: Map<string, number>[],
): Prepared {
  const [keys, sigs, shapes, texts] = tables as [
    Map<string, number>,
    Map<string, number>,
    Map<string, number>,
    Map<string, number>,
  ];
  const n = steps.length;
  const out: Prepared = {
    fields: new Array<StepFields>(n),
    key: new Int32Array(n),
    sig: new Int32Array(n),
    kind: new Uint8Array(n),
    shape: new Int32Array(n),
    values: new Array<Int32Array>(n),
  };
  steps.forEach((step, i) => {
    const { fields, signature } = view(step);
    out.fields[i] = fields;
    const values = new Int32Array(fields.size);
    let names = '';
    let k = 0;
    for (const [name, text] of fields) {
      names += `${name}\u0001`;
      values[k++] = intern(texts, text);
    }
    const shape = intern(shapes, names);
    out.shape[i] = shape;
    out.values[i] = values;
    // equal keys = same kind, agent, field names and texts (texts compared once, by interning)
    out.key[i] = intern(keys, `${step.kind}|${step.agent}|${shape}|${values.join(',')}`);
    out.sig[i] = intern(sigs, signature);
    out.kind[i] = KINDS[step.kind];
  });
  return out;
}

/**
 * The cost of pairing A's step i with B's step j (see the table above), as a closure
 * over plain typed arrays: the dynamic programme calls it for every cell of a band.
 */
function pairCosts(a: Prepared, b: Prepared): (i: number, j: number) => number {
  const { key: keyA, kind: kindA, sig: sigA, shape: shapeA, values: valuesA, fields: fieldsA } = a;
  const { key: keyB, kind: kindB, sig: sigB, shape: shapeB, values: valuesB, fields: fieldsB } = b;
  const { same, otherSignature, changedBase, changedSpan } = ALIGNMENT_COSTS;
  return (i, j) => {
    if (keyA[i] === keyB[j]) return same;
    if (kindA[i] !== kindB[j]) return INF;
    if (sigA[i] !== sigB[j]) return otherSignature;
    let share: number;
    if (shapeA[i] === shapeB[j]) {
      const va = valuesA[i]!;
      const vb = valuesB[j]!;
      let differing = 0;
      for (let k = 0; k < va.length; k++) if (va[k] !== vb[k]) differing++;
      share = va.length === 0 ? 0 : differing / va.length;
    } else {
      share = dissimilarity(fieldsA[i]!, fieldsB[j]!);
    }
    return changedBase + Math.round(changedSpan * share);
  };
}

type Pair = [a: number, b: number];
type Task = { region: [number, number, number, number] } | { pair: Pair };

export function alignSteps(
  stepsA: readonly StepDigest[],
  stepsB: readonly StepDigest[],
  options: AlignOptions = {},
): AlignedRow[] {
  return alignWith(stepsA, stepsB, digestView, options);
}

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
  const tables = [new Map(), new Map(), new Map(), new Map()] as Map<string, number>[];
  const a = prepare(stepsA, view, tables);
  const b = prepare(stepsB, view, tables);
  const budget = options.cellBudget ?? DEFAULT_CELL_BUDGET;
  const pairs: Pair[] = [];
  const shared: number[] = [];

  let a0 = 0;
  let b0 = 0;
  if (options.sharedPrefix !== undefined) {
    const inPrefix = (s: S) =>
      s.kind === 'start' || (s.kind !== 'end' && s.step <= options.sharedPrefix!);
    while (a0 < stepsA.length && inPrefix(stepsA[a0]!)) {
      const next = stepsB[b0];
      if (next && inPrefix(next) && next.kind === stepsA[a0]!.kind) {
        pairs.push([a0, b0++]);
      } else {
        shared.push(pairs.length);
        pairs.push([a0, -1]);
      }
      a0++;
    }
  }

  const cost = pairCosts(a, b);
  const stack: Task[] = [{ region: [a0, stepsA.length, b0, stepsB.length] }];
  const counts = new KeyCounter(tables[0]!.size);
  while (stack.length > 0) {
    const task = stack.pop()!;
    if ('pair' in task) {
      pairs.push(task.pair);
      continue;
    }
    let [i0, i1, j0, j1] = task.region;
    // equal steps at the start: output now (this task is the earliest pending output)
    while (i0 < i1 && j0 < j1 && a.key[i0] === b.key[j0]) pairs.push([i0++, j0++]);
    // equal steps at the end: output after the middle (pushed first, popped last)
    while (i0 < i1 && j0 < j1 && a.key[i1 - 1] === b.key[j1 - 1]) {
      i1--;
      j1--;
      stack.push({ pair: [i1, j1] });
    }
    if (i0 === i1 || j0 === j1) {
      for (let i = i0; i < i1; i++) pairs.push([i, -1]);
      for (let j = j0; j < j1; j++) pairs.push([-1, j]);
      continue;
    }
    const anchors = uniqueAnchors(a.key, i0, i1, b.key, j0, j1, counts);
    if (anchors.length === 0) {
      for (const pair of alignBand(cost, i0, i1, j0, j1, budget)) pairs.push(pair);
      continue;
    }
    // regions between anchors, in order, pushed in reverse so the first pops first
    const tasks: Task[] = [];
    let pi = i0;
    let pj = j0;
    for (const [ai, bj] of anchors) {
      tasks.push({ region: [pi, ai, pj, bj] }, { pair: [ai, bj] });
      pi = ai + 1;
      pj = bj + 1;
    }
    tasks.push({ region: [pi, i1, pj, j1] });
    for (let t = tasks.length - 1; t >= 0; t--) stack.push(tasks[t]!);
  }

  const isShared = new Set(shared);
  return pairs.map(([i, j], index): AlignedRow => {
    if (isShared.has(index)) return { status: 'shared', a: i, b: null };
    if (j < 0) return { status: 'only-a', a: i, b: null };
    if (i < 0) return { status: 'only-b', a: null, b: j };
    if (a.key[i] === b.key[j]) return { status: 'same', a: i, b: j };
    return {
      status: 'changed',
      a: i,
      b: j,
      fields: differingFields(a.fields[i]!, b.fields[j]!),
    };
  });
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
 * Exact alignment of a stretch, or, past the budget, in a band around its diagonal.
 * Ties prefer pairing, then A's step alone, so equal inputs give equal outputs.
 */
function alignBand(
  pairCost: (i: number, j: number) => number,
  i0: number,
  i1: number,
  j0: number,
  j1: number,
  budget: number,
): Pair[] {
  const n = i1 - i0;
  const m = j1 - j0;
  const gap = ALIGNMENT_COSTS.gap;
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
    for (let j = rowLo; j <= rowHi; j++) {
      let best = INF;
      let move = 0;
      if (j > 0 && j - 1 >= plo && j - 1 <= phi && prev[j - 1]! < INF) {
        const c = pairCost(i0 + i - 1, j0 + j - 1);
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
  const out: Pair[] = [];
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const move = i === 0 ? 3 : moves[offset[i]! - lo[i]! + j]!;
    if (move === 1) out.push([i0 + --i, j0 + --j]);
    else if (move === 2) out.push([i0 + --i, -1]);
    else out.push([-1, j0 + --j]);
  }
  return out.reverse();
}
