/**
 * Fork lineage as comparison reads it. Forking is planned (issue 14) to record
 * `forkOf: {runId, step}` on `run.started`; until then no run carries it, and this reads
 * it defensively from whatever a history holds, so "compare with parent" works as soon
 * as forks exist without a change here.
 */
import type { RunEvent } from '../events';

export interface ForkOf {
  runId: string;
  /** the parent's step the fork continued from: steps up to it are shared */
  step: number;
}

export function forkOfEvent(event: RunEvent): ForkOf | undefined {
  if (event.type !== 'run.started') return undefined;
  const value = (event as { forkOf?: unknown }).forkOf;
  if (typeof value !== 'object' || value === null) return undefined;
  const { runId, step } = value as { runId?: unknown; step?: unknown };
  if (typeof runId !== 'string' || typeof step !== 'number' || !Number.isInteger(step)) {
    return undefined;
  }
  return { runId, step };
}

/** The shared prefix of two runs: the fork step when one is a fork of the other (A the parent). */
export function sharedPrefixOf(
  a: { runId: string; forkOf?: ForkOf },
  b: { runId: string; forkOf?: ForkOf },
): number | undefined {
  if (b.forkOf && b.forkOf.runId === a.runId) return b.forkOf.step;
  return undefined;
}
