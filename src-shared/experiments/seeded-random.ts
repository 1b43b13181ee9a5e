/**
 * A small seeded random number generator (mulberry32): the bootstrap must give the same
 * interval for the same scores every time a report is computed, on every machine, so an
 * experiment's report never changes when it is opened again.
 */
export type Random = () => number;

/** Uniform numbers in [0, 1) from a 32-bit seed; the same seed, the same sequence. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit seed from a text (FNV-1a), e.g. a scorer's and a variant's names. */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
