/**
 * What "compare runs" works on and answers with. Pure data (it crosses the IPC contract
 * and is printed by `workbench runs diff --json`), built by `diffRuns` and
 * `compareRuns` from the runs' events.
 */
import type { RecordedAgentDefinition } from '../domain/agent-definition';
import type { RunOutcome, TokenUsage } from '../domain/agent';
import type { RunSettings } from '../events';
import type { ForkFigures } from './fork-figures';

/** One tool call of a step: what was asked and what came back. */
export interface StepCall {
  name: string;
  /** the arguments as the tool received them: parsed JSON, or the raw text that did not parse */
  args: unknown;
  /** `ok`, `error` or `running` (no `tool.finished`: the run stopped meanwhile) */
  status: 'ok' | 'error' | 'running';
  output: string;
  error?: string;
  exitCode?: number;
  durationMs: number;
}

/** A message that entered the step other than the reply and the tool results. */
export interface StepMessage {
  /** a memory role (`user`, `system`), or `question` / `answer` (ask_human), or `plan` */
  role: string;
  text: string;
}

/**
 * One unit of alignment. `start` holds what happened before the first step (the task),
 * `step` one think/act cycle, `interlude` a flow planner's work between executor steps,
 * `end` the run's outcome.
 */
export type StepKind = 'start' | 'step' | 'interlude' | 'end';

export interface StepDigest {
  kind: StepKind;
  /** the run's step number (0 for `start`; for `interlude` and `end` the steps before it) */
  step: number;
  agent: string;
  /** seq of the step's first event: where the run's timeline shows it */
  seq: number;
  /** time of that event (for `end`: when the run finished, or its last event) */
  ts: number;
  messages: StepMessage[];
  /** the model's text (several model calls in one step are joined by a blank line) */
  reply: string;
  calls: StepCall[];
  /** stuck detections in this step, by kind (`content`, `tool_calls`) */
  stuck: string[];
  /** for `end`: the outcome line, e.g. `finished (terminate: success)` */
  outcome?: string;
  model: string;
  tokens: TokenUsage;
  /** time the model took (its responses' durations, less queueing and retry backoff) */
  latencyMs: number;
  /** the step's wall time (`step.finished`), or null when it did not finish */
  durationMs: number | null;
  retries: number;
}

/** Whether two aligned steps are the same; `shared` = inherited from the parent by a fork. */
export type RowStatus = 'same' | 'changed' | 'only-a' | 'only-b' | 'shared';

export interface AlignedRow {
  status: RowStatus;
  /** index into run A's steps, or null when the row exists only in B */
  a: number | null;
  b: number | null;
  /** for `changed`: the fields that differ (`reply`, `call 1 args`, `outcome`, ...) */
  fields?: string[];
}

/** The per-run figures of the summary header. */
export interface RunFacts {
  runId: string;
  /** the name the user gave the run in the history (renamed), shown instead of the task */
  title?: string;
  agent: string;
  task: string;
  /** the model the run was started with */
  model: string;
  flow?: string;
  startedAt: number;
  steps: number;
  maxSteps: number;
  tokens: TokenUsage;
  /** estimated from list prices (src-shared/pricing.ts); null when a model's price is unknown */
  costUsd: number | null;
  /** run.started to run.finished (or to the last event of a run that did not finish) */
  wallMs: number;
  toolCalls: number;
  toolErrors: number;
  stuckDetections: number;
  /** the outcome, `running`, or `interrupted` (the history ends without `run.finished`) */
  outcome: RunOutcome | 'running' | 'interrupted';
  /** resolved settings recorded at start; null for runs recorded before settings were */
  settings: RunSettings | null;
  /** the run this one was forked from, when it is a fork */
  forkOf?: { runId: string; step: number };
  /** the agent definition the run recorded (docs/agents.md); absent in older runs and flows */
  agentDefinition?: RecordedAgentDefinition;
}

export interface SettingChange {
  key: string;
  /** undefined: the run has no such setting (or did not record its settings) */
  a?: string | number | boolean;
  b?: string | number | boolean;
}

/** What a compare row says of a step by number: kind, step and agent (`rowLabel`). */
export type StepRef = Pick<StepDigest, 'kind' | 'step' | 'agent'>;

/** A step-aligned comparison of two runs (`workbench runs diff A B`): with every step's contents. */
export type RunDiff = RunDiffOf<StepDigest>;

/**
 * The comparison the compare view opens with (`runs:diff`): each step only by number; the
 * steps' contents come in pages for the rows in view (`runs:steps`).
 */
export type RunDiffView = RunDiffOf<StepRef>;

export interface RunDiffOf<S extends StepRef> {
  a: RunFacts;
  b: RunFacts;
  /** indexed by the rows' `a` / `b` */
  stepsA: S[];
  stepsB: S[];
  rows: AlignedRow[];
  /** index into rows of the first row that is not the same, or null when none */
  firstDifference: number | null;
  /** rows that differ (changed, only-a, only-b) */
  differences: number;
  settings: SettingChange[];
  /** the same steps with the same contents and the same outcome (settings, tokens and times may differ) */
  isEquivalent: boolean;
  /** steps A and B share as a fork and its parent (A is the parent), else 0 */
  sharedPrefix: number;
  /**
   * For a fork and its parent: both measured after the fork step, and the parent's shared
   * steps on their own (fork-figures.ts). `a` and `b` stay the whole runs' figures.
   */
  fork?: ForkFigures;
}

/** One run of an N-run comparison, measured against the first (the baseline). */
export interface ComparedRun {
  facts: RunFacts;
  /** null for the baseline itself */
  versusBaseline: {
    isEquivalent: boolean;
    differences: number;
    /** the steps (A's, B's) of the first difference, or null when equivalent */
    firstDifference: { stepA: number | null; stepB: number | null; label: string } | null;
    settings: SettingChange[];
  } | null;
}

/** `runs:compare`: the summary table of N runs (e.g. one task on three model profiles). */
export interface RunsComparison {
  runs: ComparedRun[];
  /** true when the runs do not all have the same task */
  hasMixedTasks: boolean;
}
