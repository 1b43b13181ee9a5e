/**
 * What an experiment scores each run with (issue 31). Every scorer gives a score in
 * [0, 1] and an explanation, recorded in the run's history as a `score.recorded` event
 * (docs/events.md) right after the agent ends, before `run.finished`.
 */
export type AnswerMatch = 'exact' | 'contains' | 'regex' | 'json_schema' | 'numeric';
export type TrajectoryMetric = 'steps' | 'cost' | 'tool_errors' | 'stuck' | 'duplicates';

interface ScorerBase {
  /** the name the report uses (unique within an experiment) */
  name: string;
  /** a score at or above it counts as a pass for pass@k, pass^k and flips (default 0.5) */
  threshold?: number;
}

/** A command in the run's sandbox after the agent: exit 0 scores 1 (the batch check). */
export interface ShellScorer extends ScorerBase {
  kind: 'shell';
  command: string;
}

/** The run's final answer (its last assistant text) against the item's expected one. */
export interface AnswerScorer extends ScorerBase {
  kind: 'answer';
  match: AnswerMatch;
  /** the item's `expected` when absent */
  expected?: string;
  /** json_schema: the schema (a subset: type, properties, required, items, enum, minimum, maximum, pattern) */
  schema?: Record<string, unknown>;
  /** numeric: the largest absolute difference that still passes (default 0) */
  tolerance?: number;
  /** exact and contains: ignore case (default true) */
  ignoreCase?: boolean;
}

/** A file in the workspace as the agent left it: it exists, or equals a text. */
export interface FileScorer extends ScorerBase {
  kind: 'file';
  path: string;
  /** absent: the file only has to exist */
  equals?: string;
}

/** A figure of the run's trajectory at most `max`. */
export interface TrajectoryScorer extends ScorerBase {
  kind: 'trajectory';
  metric: TrajectoryMetric;
  max: number;
}

/** A model reads the task, the answer and the rubric, and gives a score in [0, 1]. */
export interface JudgeScorer extends ScorerBase {
  kind: 'judge';
  /** the `[llm.NAME]` profile the judge runs on */
  profile: string;
  rubric: string;
}

export type ScorerSpec = ShellScorer | AnswerScorer | FileScorer | TrajectoryScorer | JudgeScorer;
export type ScorerKind = ScorerSpec['kind'];
export const SCORER_KINDS: readonly ScorerKind[] = [
  'shell',
  'answer',
  'file',
  'trajectory',
  'judge',
];

export const DEFAULT_THRESHOLD = 0.5;

export function passes(spec: Pick<ScorerBase, 'threshold'>, score: number): boolean {
  return score >= (spec.threshold ?? DEFAULT_THRESHOLD);
}

export interface ScoreResult {
  score: number;
  explanation: string;
}

/** What a run is scored with: the experiment's scorers and its item's expected answer. */
export interface RunScoring {
  scorers: ScorerSpec[];
  expected?: string;
}
