/**
 * An experiment's scorer judged the run (issue 31, docs/experiments.md): one event per
 * scorer, after the agent ended (and after a batch check), before `run.finished`.
 */
import type { TokenUsage } from '../domain/agent';
import type { Message } from '../domain/message';
import type { ScorerKind } from '../experiments/scorer-types';

export interface ScoreRecordedEvent {
  type: 'score.recorded';
  /** the scorer's name in the experiment */
  scorer: string;
  kind: ScorerKind;
  /** in [0, 1] */
  score: number;
  /** score >= the scorer's threshold (default 0.5) */
  passed: boolean;
  explanation: string;
  durationMs: number;
  /** the judge's own model call, kept to be inspected like any model call */
  judge?: ScoreJudgeCall;
  /** the scorer could not run (a sandbox gone, the judge's model failing): score 0 */
  error?: string;
}

export interface ScoreJudgeCall {
  profile: string;
  model: string;
  request: Message[];
  /** the judge's reply as it came (null when the call failed) */
  reply: string | null;
  usage: TokenUsage;
}
