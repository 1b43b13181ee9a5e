/** What the contract says about runs: starting them, their summaries, history pages, transfer. */
import type { AgentName, AgentState, FlowName, RunOutcome, TokenUsage } from './agent';
import type { RunEvent } from '../events';

export interface RunStartInput {
  task: string;
  agent?: AgentName;
  flow?: FlowName;
  maxSteps?: number;
  /** the workspace (and its sandbox) the run works in; defaults to the app's session */
  sessionId?: string;
  /** the agent debugger: breakpoints in text form (`tool:bash`, `stuck`, `step:3`...) */
  breakpoints?: string[];
  /** approval mode for this run: calls of these tools wait for approve / edit / skip */
  approveTools?: string[];
}

export interface RunSummary {
  runId: string;
  agent: string;
  task: string;
  model: string;
  flow?: FlowName;
  sessionId?: string;
  startedAt: number;
  finishedAt?: number;
  state: AgentState;
  outcome?: RunOutcome;
  steps: number;
  maxSteps: number;
  usage: TokenUsage;
  error?: string;
  /** seq of the last event folded into this summary (the snapshot point of `runs:get`) */
  lastSeq?: number;
  /**
   * true when the run was still going when the app stopped (crash, kill, power loss):
   * its history ends without `run.finished`
   */
  isInterrupted?: boolean;
}

export interface RunGetInput {
  runId: string;
  /** only events with a higher seq (to fill a gap); default 0 = the whole run */
  afterSeq?: number;
  /**
   * at most this many events (a page): a long run paints after its first page while
   * the rest follows with `afterSeq`; default: all of them
   */
  limit?: number;
}

export interface RunSnapshot {
  summary: RunSummary;
  /** in seq order; events up to `summary.lastSeq` (live pushes continue after it) */
  events: RunEvent[];
  /** the run is still going: pushes with a higher seq will follow */
  isLive: boolean;
  /** damaged history lines that were skipped, e.g. a torn last line after a crash */
  warnings: string[];
  /** `limit` cut the page short: ask again with `afterSeq` = the last event's seq */
  hasMore: boolean;
}

export interface RunExport {
  /** a suggested file name, e.g. `run-20250101T120000-ab12cd34.jsonl` */
  fileName: string;
  /** the run's events, one JSON object per line (the history file format) */
  content: string;
}

export interface RunImportInput {
  content: string;
  fileName?: string;
}

export interface RunImportResult {
  summary: RunSummary;
  warnings: string[];
}
