/**
 * Batch runs (`workbench batch`, the Batch view): a task set run against several model
 * profiles, each (task, profile, repeat) an ordinary run tagged with the batch id. The
 * plan says what to run; the state says which run fills which item; the grid is computed
 * from the runs' own summaries (their histories), never stored.
 */
import type { AgentName, RunOutcome } from './agent';
import type { RunVerdict, VerdictKind } from '../run-outcome';
import type { RunScoring } from '../experiments/scorer-types';

export interface BatchTask {
  /** the task text given to the agent */
  task: string;
  /** a host folder copied into each run's own sandbox (absolute) */
  workspace?: string;
  /** run in the sandbox after the agent finishes; exit 0 = pass */
  check?: string;
  /**
   * a batch over several agents or versions (`batch --agent a@3 --agent a@4`): the row's
   * built-in agent, or the user's agent it runs (`agentRef`, pinned to a version) under
   * `agentLabel` (`a@3`); one grid row per task and agent (docs/agents.md)
   */
  agent?: AgentName;
  agentRef?: string;
  agentLabel?: string;
  /** an experiment's scorers and the item's expected answer (docs/experiments.md) */
  scoring?: RunScoring;
}

/** The agent of an experiment's column: as a task's (BatchTask), with the agent required. */
export type BatchColumnAgent = Required<Pick<BatchTask, 'agent'>> &
  Pick<BatchTask, 'agentRef' | 'agentLabel'>;

/** How a column's agent is named in keys and reports: `name@version` or the built-in name. */
export function columnAgentLabel(column: BatchColumnAgent): string {
  return column.agentLabel ?? column.agentRef ?? column.agent;
}

export interface BatchItem {
  /** `t{task}-p{profile}-r{repeat}`: stable across resumes */
  key: string;
  taskIndex: number;
  /** index into the plan's profiles */
  profileIndex: number;
  repeat: number;
}

export interface BatchPlan {
  version: 1;
  batchId: string;
  createdAt: number;
  agent: AgentName;
  tasks: BatchTask[];
  /** `[llm.NAME]` profiles, one grid column each; null: the agent's own profile */
  profiles: (string | null)[];
  /**
   * an experiment's variants: column i runs `agents[i]` (a built-in agent, or a user's
   * agent pinned to a version, resolved when the experiment starts) with `profiles[i]`;
   * absent: every column runs `agent`
   */
  agents?: BatchColumnAgent[];
  repeat: number;
  concurrency: number;
  maxSteps?: number;
  items: BatchItem[];
}

/** `queued` until a run is started for it; `done` once that run ended (not stopped). */
export type BatchItemStatus = 'queued' | 'running' | 'done';

export interface BatchItemState {
  status: BatchItemStatus;
  /** the run filling the item (the latest one, after a resume) */
  runId?: string;
}

export interface BatchState {
  version: 1;
  batchId: string;
  items: Record<string, BatchItemState>;
  /** stopped by the user: a resume goes on with what was left */
  isStopped?: boolean;
  /** every item is done */
  isComplete?: boolean;
  updatedAt: number;
}

export interface BatchProgress {
  batchId: string;
  total: number;
  done: number;
  running: number;
  queued: number;
  /** estimated time left, from the mean duration of the runs done so far */
  etaMs?: number;
  isStopped: boolean;
  isComplete: boolean;
}

/** One run of a cell, as its history tells it: the figures are this run's alone. */
export interface BatchCellRun {
  key: string;
  repeat: number;
  runId?: string;
  status: BatchItemStatus;
  outcome?: RunOutcome;
  /**
   * the run's one badge, from `runVerdict` (src-shared/run-outcome.ts): the same label the
   * history and the run header show (`finished with 1 tool error`); absent before it started
   */
  verdict?: RunVerdict;
  /** the check's verdict; absent without a check or before it ran */
  check?: boolean;
  steps: number;
  tokens: number;
  durationMs?: number;
  stuck: number;
}

/**
 * A task x profile cell: its repeats and what they add up to. `steps`, `tokens`,
 * `durationMs` and `stuck` are totals over the cell's `ended` runs (never a run's own
 * figures: `cellFigures` gives the mean per run); a run still going is not in them.
 */
export interface BatchCell {
  taskIndex: number;
  profileIndex: number;
  runs: BatchCellRun[];
  /** runs of the cell that ended (their figures are in the totals) */
  ended: number;
  /** ended runs whose verdict is `finished` or `finished_with_errors` (exit code 0) */
  finished: number;
  /** how many ended runs got each verdict (the labels the history shows) */
  verdicts: Partial<Record<VerdictKind, number>>;
  checksPassed: number;
  checksRun: number;
  steps: number;
  tokens: number;
  durationMs: number;
  stuck: number;
}

export interface BatchGrid {
  batchId: string;
  agent: AgentName;
  tasks: BatchTask[];
  /** column labels: the profile's name, or the agent's own profile's */
  profiles: string[];
  /** rows by task, columns by profile */
  cells: BatchCell[][];
  progress: BatchProgress;
}

/** What a list of batches shows. */
export interface BatchListEntry {
  batchId: string;
  agent: AgentName;
  createdAt: number;
  progress: BatchProgress;
}

/** `batch:start`: what `workbench batch` takes, from the Batch view's form. */
export interface BatchStartInput {
  agent: AgentName;
  tasks: BatchTask[];
  /** `[llm.NAME]` profiles (`default`: `[llm]` alone); empty: the agent's own */
  profiles: string[];
  repeat: number;
  concurrency: number;
  /** the check of tasks that name none */
  check?: string;
  maxSteps?: number;
}
