/**
 * A `score.recorded` event as a timeline row (issue 31): the scorer's name, kind, score,
 * pass/fail, explanation, error, and an LLM judge's own model call. Scores come after
 * the agent's last step, so the row belongs to no step (a collapsed last step does not
 * hide them, and the inspector does not offer that step's request as theirs).
 */
import type { RunEventOf } from '@shared/events';
import type { ScoreItem, TimelineItem } from './types';

export function scoreItem(
  e: RunEventOf<'score.recorded'>,
  agent: string,
  items: readonly TimelineItem[],
): ScoreItem {
  const previous = items[items.length - 1];
  return {
    kind: 'score',
    id: e.seq,
    ts: e.ts,
    agent,
    step: 0,
    stepId: 0,
    scorer: e.scorer,
    scorerKind: e.kind,
    score: e.score,
    passed: e.passed,
    explanation: e.explanation,
    durationMs: e.durationMs,
    ...(e.error !== undefined ? { error: e.error } : {}),
    ...(e.judge ? { judge: e.judge } : {}),
    isFirstScore: previous?.kind !== 'score',
  };
}

/** Two decimals: a judge's 0.85 stays 0.85, a pass is 1.00. */
export function scoreText(score: number): string {
  return score.toFixed(2);
}
