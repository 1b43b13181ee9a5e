/**
 * The steps of two runs as the alignment (align.ts) reads them: numbers in flat typed
 * arrays, made without a string or a Map per step (issue 27: two 10,000-step runs made
 * 20,000 key strings, 20,000 field Maps and 20,000 small arrays per comparison, and the
 * garbage collection of the `workbench serve` process cost more than the alignment).
 *
 * Texts (or their hashes, for stored heads) and field names are interned to ids shared by
 * both runs. A step's shape (its field names in order) is a node of a trie over name ids;
 * its key (kind, agent, shape and every field's text id) is found through a 30-bit hash of
 * those numbers and checked against the first step that had it, number by number, so two
 * steps have equal keys exactly when the old string key `${kind}|${agent}|${shape}|${ids}`
 * was equal.
 */
import { differingFields, dissimilarity, type StepFields } from './step-fields';
import type { StepKind } from './types';

/** A step's comparable fields: name and text (or hash of the text), in display order. */
export type FieldList = Iterable<readonly [name: string, text: string]>;

export const INF = 1_000_000_000;
/** `start`/`end` pair with nothing else; a step and an interlude may pair */
const KIND_CLASS = { start: 0, step: 1, interlude: 1, end: 2 } as const;
const KIND_CODE = { start: 0, step: 1, interlude: 2, end: 3 } as const;

export interface Prepared {
  /** each step's fields as the view gave them (Maps are made of them only when needed) */
  fields: FieldList[];
  key: Int32Array;
  sig: Int32Array;
  /** KIND_CLASS */
  kind: Uint8Array;
  /** KIND_CODE: part of the key */
  code: Uint8Array;
  agent: Int32Array;
  /** trie node of the field names: equal shape = same field names in order */
  shape: Int32Array;
  /** the text ids of step i's fields are values[start[i]] .. values[start[i + 1] - 1] */
  start: Int32Array;
  values: Int32Array;
  /** field Maps made for the rare pair of different shapes, by step */
  maps?: (StepFields | undefined)[];
}

function intern(table: Map<string, number>, text: string): number {
  let id = table.get(text);
  if (id === undefined) {
    id = table.size;
    table.set(text, id);
  }
  return id;
}

const mix = (h: number, v: number): number => {
  h = Math.imul(h ^ v, 0x9e3779b1);
  return (h << 15) | (h >>> 17);
};

/** Interned texts, names, shapes and keys, shared by the two runs of one alignment. */
export class StepTables {
  private readonly texts = new Map<string, number>();
  private readonly names = new Map<string, number>();
  private readonly sigs = new Map<string, number>();
  private readonly agents = new Map<string, number>();
  /** shape trie: node -> name id -> child node; node 0 = no fields */
  private readonly shapeChildren: Map<number, number>[] = [new Map()];
  /** each shape's field names, in order */
  readonly shapeNames: string[][] = [[]];
  /** per node: the name last followed from it, and to which child */
  private readonly lastName: string[] = [];
  private readonly lastChild: number[] = [];
  /** key hash -> its first key id; further keys of one hash are chained in `keyNext` */
  private readonly keyByHash = new Map<number, number>();
  private readonly keyNext: number[] = [];
  /** the step a key was first seen at, to check a hash match against */
  private readonly keySide: Prepared[] = [];
  private readonly keyStep: number[] = [];

  get keyCount(): number {
    return this.keyNext.length;
  }

  prepare<S extends { kind: StepKind; agent: string }>(
    steps: readonly S[],
    view: (step: S) => { fields: FieldList; signature: string },
  ): Prepared {
    const n = steps.length;
    const out: Prepared = {
      fields: new Array<FieldList>(n),
      key: new Int32Array(n),
      sig: new Int32Array(n),
      kind: new Uint8Array(n),
      code: new Uint8Array(n),
      agent: new Int32Array(n),
      shape: new Int32Array(n),
      start: new Int32Array(n + 1),
      values: new Int32Array(Math.max(16, n * 6)),
    };
    let used = 0;
    for (let i = 0; i < n; i++) {
      const step = steps[i]!;
      const { fields, signature } = view(step);
      out.fields[i] = fields;
      let node = 0;
      for (const [name, text] of fields) {
        node = this.shapeChild(node, name);
        if (used === out.values.length) {
          const grown = new Int32Array(used * 2);
          grown.set(out.values);
          out.values = grown;
        }
        out.values[used++] = intern(this.texts, text);
      }
      out.start[i + 1] = used;
      out.shape[i] = node;
      out.sig[i] = intern(this.sigs, signature);
      out.kind[i] = KIND_CLASS[step.kind];
      out.code[i] = KIND_CODE[step.kind];
      out.agent[i] = intern(this.agents, step.agent);
      out.key[i] = this.keyOf(out, i);
    }
    return out;
  }

  private shapeChild(node: number, name: string): number {
    // consecutive steps mostly have the same fields: a name equal to the one last seen at
    // this node needs no lookup (each parsed head has its own copies of the names)
    if (this.lastName[node] === name) return this.lastChild[node]!;
    const nameId = intern(this.names, name);
    const children = this.shapeChildren[node]!;
    let child = children.get(nameId);
    if (child === undefined) {
      child = this.shapeChildren.length;
      children.set(nameId, child);
      this.shapeChildren.push(new Map());
      this.shapeNames.push([...this.shapeNames[node]!, name]);
    }
    this.lastName[node] = name;
    this.lastChild[node] = child;
    return child;
  }

  private keyOf(p: Prepared, i: number): number {
    let h = mix(mix(mix(0x2545f491, p.code[i]!), p.agent[i]!), p.shape[i]!);
    for (let k = p.start[i]!; k < p.start[i + 1]!; k++) h = mix(h, p.values[k]!);
    h &= 0x3fffffff;
    const first = this.keyByHash.get(h);
    let last = -1;
    for (let key = first ?? -1; key >= 0; key = this.keyNext[key]!) {
      if (sameKey(p, i, this.keySide[key]!, this.keyStep[key]!)) return key;
      last = key;
    }
    const key = this.keyNext.length;
    this.keyNext.push(-1);
    this.keySide.push(p);
    this.keyStep.push(i);
    if (last >= 0) this.keyNext[last] = key;
    else this.keyByHash.set(h, key);
    return key;
  }
}

function sameKey(a: Prepared, i: number, b: Prepared, j: number): boolean {
  if (a.code[i] !== b.code[j] || a.agent[i] !== b.agent[j] || a.shape[i] !== b.shape[j]) {
    return false;
  }
  return sameValues(a, i, b, j) === 0;
}

/** How many of two same-shape steps' fields differ. */
function sameValues(a: Prepared, i: number, b: Prepared, j: number): number {
  const va = a.values;
  const vb = b.values;
  const sa = a.start[i]!;
  const sb = b.start[j]!;
  const length = a.start[i + 1]! - sa;
  let differing = 0;
  for (let k = 0; k < length; k++) if (va[sa + k] !== vb[sb + k]) differing++;
  return differing;
}

function mapOf(p: Prepared, i: number): StepFields {
  p.maps ??= [];
  let map = p.maps[i];
  if (!map) {
    map = new Map(p.fields[i]!);
    p.maps[i] = map;
  }
  return map;
}

/**
 * Share of fields that differ between two steps of the same signature and different keys
 * (step-fields.ts `dissimilarity`): counted on the text ids when both have the same field
 * names, else on their fields' Maps.
 */
export function changedShare(a: Prepared, i: number, b: Prepared, j: number): number {
  if (a.shape[i] !== b.shape[j]) return dissimilarity(mapOf(a, i), mapOf(b, j));
  const length = a.start[i + 1]! - a.start[i]!;
  return length === 0 ? 0 : sameValues(a, i, b, j) / length;
}

/** The names of the fields whose texts differ (step-fields.ts `differingFields`). */
export function changedFields(
  tables: StepTables,
  a: Prepared,
  i: number,
  b: Prepared,
  j: number,
): string[] {
  if (a.shape[i] !== b.shape[j]) return differingFields(mapOf(a, i), mapOf(b, j));
  const names = tables.shapeNames[a.shape[i]!]!;
  const sa = a.start[i]!;
  const sb = b.start[j]!;
  const out: string[] = [];
  for (let k = 0; k < names.length; k++) {
    if (a.values[sa + k] !== b.values[sb + k]) out.push(names[k]!);
  }
  return out;
}
