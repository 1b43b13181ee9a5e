/**
 * The shapes RunManager works with: what a run factory gets and hands back, how a run
 * is started, and the handle a caller keeps.
 */
import type { RecordedAgentDefinition } from '@shared/domain/agent-definition';
import type { AgentName, FlowName, RunResult } from '@shared/domain/agent';
import type { DebugActor } from '@shared/domain/debugger';
import type { McpPromptChoice } from '@shared/domain/mcp';
import type { RunStartInput, RunWorkspace, WorkspaceChoice } from '@shared/domain/runs';
import type { MessageImage } from '@shared/domain/message';
import type {
  EventImage,
  RerunSettings,
  RunBatchTag,
  RunEvent,
  RunEventPayload,
  RunSettings,
} from '@shared/events';
import type { RunSummary } from '@shared/ipc';
import type { RunDebugger } from '../debug/run-debugger';
import type { CheckpointStore } from './checkpoint-store';
import type { RunScoring } from '@shared/experiments/scorer-types';
import type { RunHistory } from './run-history';
import type { RunLineage } from './run-lineage';

/** What a factory hands back: something to run, and what to release afterwards. */
export interface PreparedRun {
  agentName: string;
  model: string;
  maxSteps: number;
  /** the resolved settings, recorded on run.started (see launch/run-settings.ts) */
  settings?: RunSettings;
  execute(task: string, signal: AbortSignal): Promise<RunResult>;
  dispose?(): Promise<void>;
  /** the task the agent really gets, when the factory made it (from an MCP prompt) */
  task?: string;
  /** the session the run really works in, when the factory chose it (a chosen workspace) */
  sessionId?: string;
  workspace?: RunWorkspace;
  /** the agent definition the run uses, recorded on run.started (docs/agents.md) */
  agentDefinition?: RecordedAgentDefinition;
}

export interface RunContext {
  runId: string;
  sessionId: string;
  emit: (event: RunEventPayload) => void;
  /** the run's debugger: agents await it at their safe points; the factory adds config breakpoints */
  debug?: RunDebugger;
  /** the events of another run in the history (a fork's parent) */
  readRun?: (runId: string) => RunEvent[] | undefined;
  /** where the run's sandbox snapshots go (absent: no checkpoints) */
  checkpoints?: CheckpointStore;
  /**
   * stores an image of this run's memory beside its history and describes it for
   * `memory.appended` (absent: the history keeps no images, only their type)
   */
  keepImage?: (image: MessageImage) => EventImage;
  /** an image another run kept (a fork's parent), as a memory message carries it */
  readImage?: (runId: string, ref: string) => MessageImage | undefined;
}

export type RunFactory = (input: ResolvedRunInput, context: RunContext) => Promise<PreparedRun>;

export interface ResolvedRunInput {
  task: string;
  agent: AgentName;
  flow?: FlowName;
  maxSteps?: number;
  workspace?: WorkspaceChoice;
  /** the run's own breakpoints (text form) and approval-mode tools, and who set them */
  breakpoints?: string[];
  approveTools?: string[];
  debugActor?: DebugActor;
  /** leave out the breakpoints and approval tools saved in config.toml (CLI --no-breakpoints) */
  ignoreSavedBreakpoints?: boolean;
  /** a fork or a resume: where it starts from (run-lineage.ts) */
  lineage?: RunLineage;
  /** "Run again": the run this one repeats */
  rerunOf?: string;
  /** with `rerunOf`: which settings it uses (recorded on run.started) */
  rerunSettings?: RerunSettings;
  /** "Run again" with the recorded settings: the run whose settings the config takes */
  recorded?: RecordedRun;
  /** the `[llm.NAME]` profile the agent uses for this run instead of its own (a batch's column) */
  profile?: string;
  /** a shell command run in the run's sandbox after the agent finishes (a batch's check) */
  check?: string;
  /** an experiment's scorers, run after the agent finishes (launch/run-scorers.ts) */
  scoring?: RunScoring;
  /** the batch cell this run fills, recorded on run.started */
  batch?: RunBatchTag;
  /**
   * `workspace` (a copy) is copied into the run's session folder, not a `copy-<runId>`
   * one: the folder a batch's warm pool started a sandbox on (sandbox/warm-pool.ts)
   */
  copyIntoSession?: boolean;
  /** the MCP prompt the task comes from (the mcp agent) */
  prompt?: McpPromptChoice;
  /** a user's agent: a name, NAME@VERSION or a definition file (agents/definitions) */
  agentRef?: string;
}

/** What a caller inside the main process may add to a run beyond the IPC's RunStartInput. */
export interface RunStartOptions {
  /** who set the request's breakpoints (the UI, or the CLI's terminal) */
  actor?: DebugActor;
  ignoreSavedBreakpoints?: boolean;
  profile?: string;
  check?: string;
  scoring?: RunScoring;
  batch?: RunBatchTag;
  /** see ResolvedRunInput.copyIntoSession */
  copyIntoSession?: boolean;
  /** a fork or a resume: where it starts from (run-lineage.ts) */
  lineage?: RunLineage;
  /** "Run again" with the settings the repeated run recorded (launch/recorded-settings.ts) */
  recorded?: RecordedRun;
  /**
   * builds this run instead of the manager's factory: a run whose agent is not built
   * here (an external agent recorded by the model gateway, runtime/gateway; the sandbox MCP
   * server's session, sandbox-mcp/sandbox-run.ts)
   */
  factory?: RunFactory;
  /** the agent the run is listed under before its run.started (with `factory`) */
  agentLabel?: string;
}

/** What "Run again" with the recorded settings needs of the run it repeats (launch/recorded-settings.ts). */
export interface RecordedRun {
  runId: string;
  agent: string;
  flow?: FlowName;
  /** its `run.started.settings`; absent in runs recorded before they existed */
  settings?: RunSettings;
  isImported?: boolean;
}

/** `line`: the event as the run history wrote it (JSON, secrets redacted), for listeners
 * that pass events on (live export hands it to its thread without serializing again) */
export type RunEventListener = (event: RunEvent, line: string) => void;

export interface RunHandle {
  runId: string;
  done: Promise<RunResult>;
}

/** RunManager's own record of a run in progress. */
export interface LiveRun {
  controller: AbortController;
  /** set right after the run is registered (its first events may come before) */
  done?: Promise<RunResult>;
  summary: RunSummary | undefined;
  lastSeq: number;
  debug: RunDebugger;
}

export interface RunManagerOptions {
  defaultAgent?: AgentName;
  /** the session runs use unless the request names one */
  sessionId?: string;
  /** where events are persisted; in memory when not given */
  history?: RunHistory;
  /**
   * secrets (API keys) that must never leave the process: any event that contains one
   * is redacted before it is stored or sent (defence in depth for reliability E12)
   */
  secrets?: () => readonly string[];
  /** the runs' sandbox snapshots (their notes join a run's warnings) */
  checkpoints?: CheckpointStore;
  /** after a run is deleted: what else it owned (a fork's session and workspace) */
  onDeleted?: (runId: string) => Promise<void>;
  /**
   * checks a fork or resume before anything is recorded (its profile, its files, its
   * workspace); throws a LineageError to refuse (launch/lineage-admission.ts)
   */
  admitLineage?: (admission: LineageAdmission) => Promise<void>;
}

/** What `admitLineage` judges: the run to start, where it starts, and its parent. */
export interface LineageAdmission {
  input: RunStartInput;
  lineage: RunLineage;
  parent: { summary: RunSummary; events: readonly RunEvent[] };
}
