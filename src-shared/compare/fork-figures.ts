/**
 * The figures of a fork and its parent, compared like with like. A fork starts from its
 * parent's memory at step N and runs only the steps after it, so its own history holds
 * no model calls or tool calls for steps 1..N: set against the parent's whole run, its
 * tokens, cost and tool calls read as savings it never made (issue 25: "−883 tokens").
 * So both sides are measured after the fork step, and the parent's steps up to it are
 * given on their own, as the part the two runs share.
 */
import type { TokenUsage } from '../domain/agent';
import { estimateCostUsd } from '../pricing';
import type { StepDigest } from './types';

/** The comparable figures of a part of a run. */
export interface RunFigures {
  steps: number;
  tokens: TokenUsage;
  /** estimated from list prices; null when a model's price is unknown */
  costUsd: number | null;
  wallMs: number;
  toolCalls: number;
  toolErrors: number;
  stuckDetections: number;
}

/** A fork and its parent side by side (`RunDiff.fork`). */
export interface ForkFigures {
  /** the fork step: the parent's steps up to it are shared */
  step: number;
  /** which side is the parent */
  parent: 'a' | 'b';
  /** what each run did after the fork step */
  a: RunFigures;
  b: RunFigures;
  /** the parent's steps up to the fork step: run once, by the parent; the fork started from them */
  shared: RunFigures;
}

/** What the figures read of a step: a digest or its stored head (step-head.ts). */
export type FigureStep = Pick<StepDigest, 'kind' | 'step' | 'ts' | 'tokens' | 'model' | 'stuck'> & {
  calls: readonly { status: string }[];
};

/** Whether a digest of the parent comes after the fork step (a planner's work after step N does). */
function isAfterFork(digest: FigureStep, step: number): boolean {
  if (digest.kind === 'end') return true;
  if (digest.kind === 'step') return digest.step > step;
  return digest.kind === 'interlude' && digest.step >= step;
}

function figuresOf(digests: readonly FigureStep[], wallMs: number): RunFigures {
  const figures: RunFigures = {
    steps: 0,
    tokens: { prompt: 0, completion: 0 },
    costUsd: 0,
    wallMs: Math.max(0, wallMs),
    toolCalls: 0,
    toolErrors: 0,
    stuckDetections: 0,
  };
  for (const d of digests) {
    if (d.kind === 'step') figures.steps += 1;
    figures.tokens.prompt += d.tokens.prompt;
    figures.tokens.completion += d.tokens.completion;
    if (d.tokens.prompt + d.tokens.completion > 0) {
      const cost = estimateCostUsd(d.model, d.tokens);
      figures.costUsd = cost === null || figures.costUsd === null ? null : figures.costUsd + cost;
    }
    figures.toolCalls += d.calls.length;
    figures.toolErrors += d.calls.filter((c) => c.status === 'error').length;
    figures.stuckDetections += d.stuck.length;
  }
  return figures;
}

const endOf = (digests: readonly FigureStep[], fallback: number) => digests.at(-1)?.ts ?? fallback;

/**
 * The parent split at the fork step, and the fork's own figures (its whole history is
 * after the fork: the inherited memory comes in as messages, not as model calls).
 */
export function forkFigures(
  parent: { steps: readonly FigureStep[]; startedAt: number },
  fork: { steps: readonly FigureStep[]; startedAt: number },
  step: number,
  parentSide: 'a' | 'b',
): ForkFigures {
  const before = parent.steps.filter((d) => !isAfterFork(d, step));
  const after = parent.steps.filter((d) => isAfterFork(d, step));
  const parentEnd = endOf(parent.steps, parent.startedAt);
  // the parent's part after the fork starts where its step N+1 (or its end) does
  const forkPoint = after[0]?.ts ?? parentEnd;
  const parentAfter = figuresOf(after, parentEnd - forkPoint);
  const forkOwn = figuresOf(fork.steps, endOf(fork.steps, fork.startedAt) - fork.startedAt);
  return {
    step,
    parent: parentSide,
    a: parentSide === 'a' ? parentAfter : forkOwn,
    b: parentSide === 'a' ? forkOwn : parentAfter,
    shared: figuresOf(before, forkPoint - parent.startedAt),
  };
}

/** The same figures seen from the other side (swapDiff). */
export function swapForkFigures(fork: ForkFigures): ForkFigures {
  return { ...fork, parent: fork.parent === 'a' ? 'b' : 'a', a: fork.b, b: fork.a };
}

/** "step 1" or "steps 1–3": the steps a fork shares with its parent. */
export function sharedStepsLabel(step: number): string {
  return step === 1 ? 'step 1' : `steps 1–${step}`;
}
