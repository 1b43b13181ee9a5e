/** What the contract says about runs: starting them, their summaries, history pages, transfer. */
import type { AgentName, AgentState, FlowName, RunOutcome, TokenUsage } from './agent';
import type { RerunSettings, RunBatchTag, RunEvent } from '../events';
import type { McpPromptChoice } from './mcp';

export interface RunStartInput {
  task: string;
  agent?: AgentName;
  flow?: FlowName;
  maxSteps?: number;
  /** the workspace (and its sandbox) the run works in; defaults to the app's session */
  sessionId?: string;
  /**
   * a host folder the sandbox sees at `/workspace`: mounted read-write, or copied into a
   * fresh folder (`isolated`) so the run cannot change the original
   */
  workspace?: WorkspaceChoice;
  /** the agent debugger: breakpoints in text form (`tool:bash`, `stuck`, `step:3`...) */
  breakpoints?: string[];
  /** approval mode for this run: calls of these tools wait for approve / edit / skip */
  approveTools?: string[];
  /** "Run again": the run this one repeats from step 0 (recorded as its sibling) */
  rerunOf?: string;
  /**
   * with `rerunOf`: the settings that run recorded (its model profile and agent settings;
   * the default) or today's config.toml (`current`); docs/time-travel.md
   */
  rerunSettings?: RerunSettings;
  /**
   * the model profile for this run only (`default`: `[llm]`), as a batch column
   * (`workbench batch --profile`) uses it; absent: the agent's own
   */
  profile?: string;
  /**
   * the mcp agent starts from this MCP prompt: its messages become the task (`task`, when
   * not empty, is added after them) and it uses the prompt's server (docs/mcp.md)
   */
  prompt?: McpPromptChoice;
  /**
   * a user's agent (docs/agents.md): its name, `NAME@VERSION`, or (from the CLI) the path
   * of its definition file; the run uses that definition instead of `agent`'s
   */
  agentRef?: string;
}

/** Fork a run at a step (`runs:fork`, `workbench runs fork`): docs/time-travel.md. */
export interface RunForkInput {
  runId: string;
  /** a step the run finished; the fork starts with the context and files it had then */
  step: number;
  /** a user message added after that context */
  message?: string;
  /** another model profile for the fork's agent (`[llm.NAME]`) */
  agentModel?: string;
  /** the fork's step limit, counted like the parent's (its restored steps included) */
  maxSteps?: number;
  /**
   * start in an empty workspace: the step's files were not kept (no snapshot), and the
   * user accepts that; without it such a fork is refused
   */
  withoutFiles?: boolean;
  /**
   * the fork's steps run with this agent: a user's agent by name or NAME@VERSION ("fork
   * with the new prompt", docs/agents.md); absent: the parent's own
   */
  agentRef?: string;
}

/**
 * Continue a finished run with a follow-up message (`runs:continue`, `workbench runs
 * continue`): a new run with the run's whole memory plus `message`, in the same session
 * and workspace (docs/time-travel.md).
 */
export interface RunContinueInput {
  runId: string;
  /** the user's follow-up: a new user message after the run's memory (and the new run's task) */
  message: string;
  /** how many more steps the continuation may take (default: the agent's max_steps) */
  maxSteps?: number;
}

/** A step's checkpoint as the UI sees it (`runs:checkpoints`). */
export interface CheckpointView {
  agent: string;
  step: number;
  /** bytes of this step's archive (the files changed since the checkpoint before) */
  bytes: number;
  /** files in the workspace at this step */
  files: number;
  /** processes left running at this step: a fork does not get them back */
  processes: string[];
}

export interface WorkspaceChoice {
  /** absolute path of a host folder */
  path: string;
  mode: 'mount' | 'copy';
}

/** Where a run's workspace is: the folder chosen, and for `copy` where the copy lives. */
export interface RunWorkspace extends WorkspaceChoice {
  copyPath?: string;
}

/** Counts of what went wrong (or was repeated) during a run: the run's health line. */
export interface RunHealth {
  toolCalls: number;
  /** tool calls that returned an error or whose command exited non-zero */
  toolErrors: number;
  /** `stuck.detected` events */
  stuck: number;
  /** responses that repeat an earlier response of the same agent (content or tool calls) */
  duplicates: number;
  /** model calls retried (rate limits, 5xx, timeouts) */
  retries: number;
}

export interface RunSummary {
  runId: string;
  agent: string;
  /** a user's agent: the version of its definition the run used (docs/agents.md) */
  agentVersion?: number;
  task: string;
  /** a name the user gave the run in the history (rename); the task is shown without one */
  title?: string;
  model: string;
  /** a fork: the run and step it started from (the history nests it under that run) */
  forkOf?: { runId: string; step: number };
  /** a resumed run: the interrupted run it continues */
  resumeOf?: { runId: string; step: number };
  /** a continuation: the finished run it goes on from (the history nests it under that run) */
  continueOf?: { runId: string; step: number };
  /** "Run again": the run this one repeats (the history lists it beside that run) */
  rerunOf?: string;
  /** which settings the re-run used: the ones `rerunOf` recorded, or today's */
  rerunSettings?: RerunSettings;
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
  /** terminate's status (`success`, `failure`) when the agent ended the run itself */
  terminateStatus?: string;
  /** absent in summaries written before it existed (an old index is rebuilt) */
  health?: RunHealth;
  /** the host folder the run worked in, when the user chose one */
  workspace?: RunWorkspace;
  /** seq of the last event folded into this summary (the snapshot point of `runs:get`) */
  lastSeq?: number;
  /**
   * true when the run was still going when the app stopped (crash, kill, power loss):
   * its history ends without `run.finished`
   */
  isInterrupted?: boolean;
  /** the run waits in the debugger (`run.paused` without its `run.resumed` yet) */
  isPaused?: boolean;
  /**
   * the run came from an exported file (`runs import`): the folders and session its
   * history names belong to the machine it was recorded on, so it is never resumed and
   * its workspace is never mounted or copied here (docs/security.md)
   */
  isImported?: boolean;
  /**
   * the run's history on disk lacks events (the disk refused them, or the file lost data
   * later), and why; `lastSeq` is then the last event that is there
   */
  historyIncomplete?: string;
  /** the batch cell this run fills (from `run.started`), when it is part of a batch */
  batch?: RunBatchTag;
  /** the batch's check command's result (from `check.finished`) */
  check?: { ok: boolean; exitCode: number | null };
}

/** A stored image of a run (`runs:image`): the bytes as base64, with their type. */
export interface RunImageData {
  /** one of image/png, image/jpeg, image/gif, image/webp (never SVG) */
  mimeType: string;
  /** base64, without a data: prefix */
  data: string;
  bytes: number;
}

/** What `runs:delete` removed beside the history entry. */
export interface RunDeleteResult {
  deleted: true;
  /** the run was still going and was stopped first */
  wasStopped: boolean;
  /** the run's own session (a chosen or copied workspace) was closed: its container is gone */
  closedSession?: string;
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
  /**
   * the history already holds this run with the same events (imported before, or
   * recorded here): nothing was imported or changed. A file whose events differ from the
   * run's is refused (`conflict`), never imported over it.
   */
  isAlreadyPresent?: boolean;
}
