/**
 * The typed contract between the runtime host (Electron main or `workbench serve`) and
 * any UI (DESIGN section 5). Requests are `domain:verb`; pushes are past-tense facts.
 * Channel strings live only here. This module has no runtime dependencies so the
 * sandboxed preload can import it without bundling a validator; the zod schemas that
 * main uses to validate inputs are in `ipc-schemas.ts`.
 */
import type { RunEvent } from './events';
import type {
  CheckpointView,
  RunForkInput,
  RunContinueInput,
  RunStartInput,
  RunSummary,
  RunGetInput,
  RunSnapshot,
  RunExport,
  RunImportInput,
  RunImportResult,
  RunDeleteResult,
  RunImageData,
} from './domain/runs';
import type {
  ConfigSource,
  ConfigView,
  ConfigSaveInput,
  ConfigImportInput,
  ConfigImportResult,
  ConnectionTestInput,
  ConnectionTestResult,
} from './domain/config-view';
import type { ProfileEdit } from './domain/profiles';
import type { SandboxStatusView, HumanAnswerInput, AppInfo } from './domain/host-views';
import type { PreflightInput, PreflightReport } from './domain/preflight';
import type {
  McpTestInput,
  McpTestResult,
  SandboxImagesView,
  SectionsSaveInput,
} from './domain/settings-sections';
import type {
  ApprovalRule,
  Breakpoint,
  DebugEdit,
  DebugStatus,
  EditResult,
  StepScope,
} from './domain/debugger';
import type { RunDiffView, RunsComparison, StepDigest } from './compare/types';
import type { McpPromptsInput, McpServerPrompts } from './domain/mcp';
import type {
  StepChangeCount,
  WorkspaceChangesView,
  WorkspaceFileView,
  WorkspacePatchView,
  WorkspacesDiffView,
  WorkspacesFirstDivergenceView,
  WorkspaceTreeView,
} from './domain/files';
import type {
  TerminalCommandInput,
  TerminalHistoryView,
  UserCommandRecord,
} from './domain/terminal';
import type { BatchGrid, BatchListEntry, BatchProgress, BatchStartInput } from './domain/batch';
import type { GatewaySetInput, GatewayView } from './domain/gateway';
import type * as Playground from './domain/playground';
import type { TelemetryStatusView } from './domain/telemetry-status';
import { AGENTS_API_METHODS, AGENTS_CHANNELS, type AgentsRequestMap } from './agents-contract';
import * as Live from './domain/files-live';
import type * as X from './domain/experiments';
import { EXPERIMENT_CHANNELS, EXPERIMENT_METHODS } from './domain/experiments';

// The contract's data types live in domain/; they are re-exported so `@shared/ipc`
// stays the one import for everything that crosses the bridge.
export * from './domain/runs';
export * from './domain/config-view';
export * from './domain/profiles';
export * from './domain/host-views';
export * from './domain/preflight';
export * from './domain/settings-sections';
export * from './domain/debugger';
export * from './domain/batch';
export * from './domain/mcp';
export * from './domain/gateway';
export * from './domain/telemetry-status';
export * from './domain/files';
export * from './domain/files-live';
export * from './domain/terminal';
export * from './domain/playground';
export * from './domain/agent-editor';
export * from './domain/experiments';

export type EmptyInput = Record<string, never>;

/** request channel -> input and output */
export interface RequestMap extends AgentsRequestMap, Live.FilesLiveRequestMap {
  'app:info': { input: EmptyInput; output: AppInfo };
  'run:start': { input: RunStartInput; output: { runId: string } };
  'run:stop': { input: { runId: string }; output: { stopped: boolean } };
  'runs:list': { input: EmptyInput; output: RunSummary[] };
  'runs:get': { input: RunGetInput; output: RunSnapshot };
  'runs:export': { input: { runId: string }; output: RunExport };
  'runs:import': { input: RunImportInput; output: RunImportResult };
  /** two runs aligned step by step (the compare view); each step by number only */
  'runs:diff': { input: { a: string; b: string }; output: RunDiffView };
  /** a page of a run's step digests (indexes of `runs:diff`'s stepsA / stepsB), from..to exclusive */
  'runs:steps': { input: { runId: string; from: number; to: number }; output: StepDigest[] };
  /** the summary table of 2-12 runs, each measured against the first */
  'runs:compare': { input: { runIds: string[] }; output: RunsComparison };
  /** a new run from a step of a finished run (docs/time-travel.md) */
  'runs:fork': { input: RunForkInput; output: { runId: string } };
  /** continues an interrupted run from where it stopped */
  'runs:resume': { input: { runId: string }; output: { runId: string } };
  /** goes on with a finished run: its memory plus a follow-up message, in its workspace */
  'runs:continue': { input: RunContinueInput; output: { runId: string } };
  /** the run's checkpoints: which steps can be forked with their files, what was running */
  'runs:checkpoints': { input: { runId: string }; output: CheckpointView[] };
  /** names a run in the history; a blank title shows the task again */
  'runs:rename': { input: { runId: string; title: string }; output: RunSummary };
  /** removes a run (stopped first when live), its files, and a container only it used */
  'runs:delete': { input: { runId: string }; output: RunDeleteResult };
  /** an image the run's history kept (`memory.appended` names it: `message.image.ref`) */
  'runs:image': { input: { runId: string; ref: string }; output: RunImageData };
  // a run's files at every step, from its checkpoints (issue 32, docs/time-travel.md)
  /** the workspace tree after `step`, with what the step changed */
  'runs:files': { input: { runId: string; step: number }; output: WorkspaceTreeView };
  /** one file after `step`: text, image, or binary (its bytes with `download`) */
  'runs:file': {
    input: { runId: string; step: number; path: string; download?: boolean };
    output: WorkspaceFileView;
  };
  /** what changed from `from` (default: the checkpoint before `to`'s) to `to` */
  'runs:changes': {
    input: { runId: string; to: number; from?: number };
    output: WorkspaceChangesView;
  };
  /** how many files each checkpointed step added, changed, deleted (the step rows' chips) */
  'runs:change-counts': { input: { runId: string }; output: { steps: StepChangeCount[] } };
  /** the change as a unified patch for `git apply` (default: the run's whole change) */
  'runs:patch': {
    input: { runId: string; from?: number; to?: number };
    output: WorkspacePatchView;
  };
  /** where two runs' workspaces differ: at a step of each (default: each run's end) */
  'runs:workspaces-diff': {
    input: { a: string; b: string; stepA?: number; stepB?: number };
    output: WorkspacesDiffView;
  };
  /** the first of the aligned step pairs (the compare view's rows) where the workspaces differ */
  'runs:workspaces-first': {
    input: { a: string; b: string; pairs: { row: number; stepA: number; stepB: number }[] };
    output: WorkspacesFirstDivergenceView;
  };
  // the run's terminal: commands typed into its session sandbox (issue 32, docs/events.md)
  /** runs a command in the run's session container; refused (`conflict`) while the agent runs */
  'sandbox:exec': { input: TerminalCommandInput; output: UserCommandRecord };
  /** the commands typed into the run's terminal so far (its user-actions log) */
  'sandbox:commands': { input: { runId: string }; output: TerminalHistoryView };
  'config:get': { input: EmptyInput; output: ConfigView };
  'config:save': { input: ConfigSaveInput; output: ConfigView };
  'config:import-openmanus': { input: ConfigImportInput; output: ConfigImportResult };
  'config:test-connection': { input: ConnectionTestInput; output: ConnectionTestResult };
  /** creates, duplicates, renames or deletes a profile, or assigns one to an agent */
  'config:profile': { input: ProfileEdit; output: ConfigView };
  'human:answer': { input: HumanAnswerInput; output: { accepted: true } };
  'sandbox:status': { input: { sessionId?: string }; output: SandboxStatusView };
  /** what a run of this agent would meet: Docker, image, model, MCP server, workspace */
  'run:preflight': { input: PreflightInput; output: PreflightReport };
  /** the images on the Docker engine, for choosing `[sandbox] image` */
  'sandbox:images': { input: EmptyInput; output: SandboxImagesView };
  /** saves `[sandbox]`, `[browser]` and `[mcp]` edits (comments kept) */
  'config:save-sections': { input: SectionsSaveInput; output: ConfigView };
  /** connects to an MCP server (saved or not) and lists its tools */
  'mcp:test': { input: McpTestInput; output: McpTestResult };
  /**
   * the prompts of the configured MCP servers (one server's with `server`), each with its
   * arguments, or why that server could not list them (unreachable, timed out)
   */
  'mcp:prompts': { input: McpPromptsInput; output: McpServerPrompts[] };
  /** the desktop app's folder picker; browser mode answers `unavailable` (type the path) */
  'dialog:pick-folder': { input: EmptyInput; output: { path: string | null } };
  // the agent debugger (docs/debugger.md): requests about one live run
  'debug:pause': { input: { runId: string }; output: DebugStatus };
  'debug:resume': { input: { runId: string }; output: DebugStatus };
  'debug:step': { input: { runId: string; scope: StepScope }; output: DebugStatus };
  'debug:set-breakpoint': { input: { runId: string; spec: string }; output: Breakpoint };
  'debug:clear-breakpoint': { input: { runId: string; id: string }; output: { cleared: true } };
  'debug:set-approval': {
    input: { runId: string; tools: string[] };
    output: { approvals: ApprovalRule[] };
  };
  'debug:edit': { input: { runId: string; edit: DebugEdit }; output: EditResult };
  // batch runs (docs/batch.md): a task set x profiles x repeats, a grid of results
  'batch:start': { input: BatchStartInput; output: { batchId: string } };
  'batch:stop': { input: { batchId: string }; output: { stopped: boolean } };
  'batch:resume': { input: { batchId: string }; output: { batchId: string } };
  'batch:get': { input: { batchId: string }; output: BatchGrid };
  'batch:list': { input: EmptyInput; output: BatchListEntry[] };
  // the model gateway (docs/gateway.md): external agents' calls recorded as runs
  'gateway:status': { input: EmptyInput; output: GatewayView };
  'gateway:set': { input: GatewaySetInput; output: GatewayView };
  // the playground (docs/playground.md): a recorded model call, edited and sent again
  'playground:open': {
    input: Playground.PlaygroundOpenInput;
    output: Playground.PlaygroundRequestView;
  };
  'playground:send': {
    input: Playground.PlaygroundSendInput;
    output: Playground.PlaygroundSendResult;
  };
  'playground:save-prompt': {
    input: Playground.PlaygroundSavePromptInput;
    output: Playground.PlaygroundSavePromptResult;
  };
  // OpenTelemetry live export and receiver (docs/telemetry.md)
  'telemetry:status': { input: EmptyInput; output: TelemetryStatusView };
  // datasets and experiments (docs/experiments.md); progress is the batch's `batch:progress`
  'datasets:list': { input: EmptyInput; output: X.DatasetListEntry[] };
  'datasets:get': { input: { name: string }; output: X.DatasetView };
  'datasets:save': { input: X.DatasetSaveInput; output: X.DatasetView };
  'datasets:add-runs': { input: X.DatasetAddRunsInput; output: X.DatasetAddRunsResult };
  'experiments:list': { input: EmptyInput; output: X.ExperimentSummary[] };
  'experiments:get': { input: { experimentId: string }; output: X.ExperimentView };
  'experiments:start': { input: X.ExperimentStartInput; output: X.ExperimentSummary };
  'experiments:resume': { input: { experimentId: string }; output: X.ExperimentSummary };
  'experiments:stop': { input: { experimentId: string }; output: { stopped: boolean } };
  'experiments:trend': { input: { datasetPath: string }; output: X.ExperimentTrendView };
}
export type RequestChannel = keyof RequestMap;
export type RequestInput<C extends RequestChannel> = RequestMap[C]['input'];
export type RequestOutput<C extends RequestChannel> = RequestMap[C]['output'];

/** push channel -> payload */
export interface PushMap {
  /**
   * a batch of events (a frame's worth), in emission order; within a run seq ascends
   * with no gaps, so a client that saw seq N of a run needs exactly N+1 next
   */
  'run:events': RunEvent[];
  /** summaries that changed outside the event stream (imported, renamed, found interrupted) */
  'runs:changed': RunSummary[];
  /** runs removed from the history (their ids) */
  'runs:deleted': string[];
  /** config.toml was saved or imported */
  'config:changed': ConfigView;
  /** a batch's counts changed (a run started or ended, the batch stopped or completed) */
  'batch:progress': BatchProgress;
  /** a playground send's streamed text and each sample's end */
  'playground:delta': Playground.PlaygroundDelta;
}
export type PushChannel = keyof PushMap;

export const REQUEST_CHANNELS = [
  'app:info',
  'run:start',
  'run:stop',
  'runs:list',
  'runs:get',
  'runs:export',
  'runs:import',
  'runs:diff',
  'runs:steps',
  'runs:compare',
  'runs:fork',
  'runs:resume',
  'runs:continue',
  'runs:checkpoints',
  'runs:rename',
  'runs:delete',
  'runs:image',
  'runs:files',
  'runs:file',
  'runs:changes',
  'runs:patch',
  'runs:change-counts',
  'runs:workspaces-diff',
  'runs:workspaces-first',
  'sandbox:exec',
  'sandbox:commands',
  'config:get',
  'config:save',
  'config:import-openmanus',
  'config:test-connection',
  'config:profile',
  'human:answer',
  'sandbox:status',
  'run:preflight',
  'sandbox:images',
  'config:save-sections',
  'mcp:test',
  'mcp:prompts',
  'dialog:pick-folder',
  'debug:pause',
  'debug:resume',
  'debug:step',
  'debug:set-breakpoint',
  'debug:clear-breakpoint',
  'debug:set-approval',
  'debug:edit',
  'batch:start',
  'batch:stop',
  'batch:resume',
  'batch:get',
  'batch:list',
  'gateway:status',
  'gateway:set',
  'playground:open',
  'playground:send',
  'playground:save-prompt',
  'telemetry:status',
  ...AGENTS_CHANNELS,
  ...Live.FILES_LIVE_CHANNELS,
  ...EXPERIMENT_CHANNELS,
] as const satisfies readonly RequestChannel[];
export const PUSH_CHANNELS = [
  'run:events',
  'runs:changed',
  'runs:deleted',
  'config:changed',
  'batch:progress',
  'playground:delta',
] as const satisfies readonly PushChannel[];

/** The named methods a UI gets: one per contract entry, nothing generic. */
export const API_METHODS = {
  getAppInfo: 'app:info',
  startRun: 'run:start',
  stopRun: 'run:stop',
  listRuns: 'runs:list',
  getRun: 'runs:get',
  exportRun: 'runs:export',
  importRun: 'runs:import',
  diffRuns: 'runs:diff',
  getRunSteps: 'runs:steps',
  compareRuns: 'runs:compare',
  forkRun: 'runs:fork',
  resumeInterruptedRun: 'runs:resume',
  continueRun: 'runs:continue',
  listCheckpoints: 'runs:checkpoints',
  renameRun: 'runs:rename',
  deleteRun: 'runs:delete',
  getRunImage: 'runs:image',
  getRunFiles: 'runs:files',
  getRunFile: 'runs:file',
  getRunChanges: 'runs:changes',
  getRunPatch: 'runs:patch',
  getStepChangeCounts: 'runs:change-counts',
  diffRunWorkspaces: 'runs:workspaces-diff',
  firstWorkspaceDivergence: 'runs:workspaces-first',
  runSandboxCommand: 'sandbox:exec',
  listSandboxCommands: 'sandbox:commands',
  getConfig: 'config:get',
  saveConfig: 'config:save',
  importOpenManusConfig: 'config:import-openmanus',
  testConnection: 'config:test-connection',
  editProfile: 'config:profile',
  answerHuman: 'human:answer',
  getSandboxStatus: 'sandbox:status',
  preflightRun: 'run:preflight',
  listSandboxImages: 'sandbox:images',
  saveConfigSections: 'config:save-sections',
  testMcpServer: 'mcp:test',
  listMcpPrompts: 'mcp:prompts',
  pickFolder: 'dialog:pick-folder',
  pauseRun: 'debug:pause',
  resumeRun: 'debug:resume',
  stepRun: 'debug:step',
  setBreakpoint: 'debug:set-breakpoint',
  clearBreakpoint: 'debug:clear-breakpoint',
  setApproval: 'debug:set-approval',
  editRun: 'debug:edit',
  startBatch: 'batch:start',
  stopBatch: 'batch:stop',
  resumeBatch: 'batch:resume',
  getBatch: 'batch:get',
  listBatches: 'batch:list',
  getGateway: 'gateway:status',
  setGateway: 'gateway:set',
  openPlayground: 'playground:open',
  sendPlayground: 'playground:send',
  savePlaygroundPrompt: 'playground:save-prompt',
  getTelemetryStatus: 'telemetry:status',
  ...AGENTS_API_METHODS,
  ...Live.FILES_LIVE_METHODS,
  ...EXPERIMENT_METHODS,
} as const satisfies Record<string, RequestChannel>;
export const API_SUBSCRIPTIONS = {
  onRunEvents: 'run:events',
  onRunsChanged: 'runs:changed',
  onRunsDeleted: 'runs:deleted',
  onConfigChanged: 'config:changed',
  onBatchProgress: 'batch:progress',
  onPlaygroundDelta: 'playground:delta',
} as const satisfies Record<string, PushChannel>;

type MethodChannel<M extends keyof typeof API_METHODS> = (typeof API_METHODS)[M];
type SubscriptionChannel<S extends keyof typeof API_SUBSCRIPTIONS> = (typeof API_SUBSCRIPTIONS)[S];

/** What the renderer talks to: implemented by the preload bridge and by the WebSocket client. */
export type AppApi = {
  [M in keyof typeof API_METHODS]: (
    input: RequestInput<MethodChannel<M>>,
  ) => Promise<RequestOutput<MethodChannel<M>>>;
} & {
  [S in keyof typeof API_SUBSCRIPTIONS]: (
    listener: (payload: PushMap[SubscriptionChannel<S>]) => void,
  ) => () => void;
};

/**
 * What the preload exposes as `window.workbench`: the same methods, answering with the
 * IpcResult envelope (a thrown error would lose its code crossing the context bridge).
 */
export type BridgeApi = {
  [M in keyof typeof API_METHODS]: (
    input: RequestInput<MethodChannel<M>>,
  ) => Promise<IpcResult<RequestOutput<MethodChannel<M>>>>;
} & {
  [S in keyof typeof API_SUBSCRIPTIONS]: (
    listener: (payload: PushMap[SubscriptionChannel<S>]) => void,
  ) => () => void;
};

export const IPC_ERROR_CODES = [
  'invalid_input',
  'forbidden',
  'not_found',
  'conflict',
  'unavailable',
  'internal',
] as const;
export type IpcErrorCode = (typeof IPC_ERROR_CODES)[number];

export interface IpcError {
  code: IpcErrorCode;
  message: string;
  /** for invalid_input: which field and why (for config: the key path and line) */
  issues?: { path: string; message: string; line?: number }[];
}

/**
 * Every request is answered with this envelope on both transports, because Electron's
 * `invoke` flattens thrown errors into a message string and we want typed errors.
 */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

/** Thrown in the UI when a request is answered with an error. */
export class AppApiError extends Error {
  readonly code: IpcErrorCode;
  readonly issues: IpcError['issues'];
  constructor(error: IpcError) {
    super(error.message);
    this.name = 'AppApiError';
    this.code = error.code;
    this.issues = error.issues;
  }
}

export function unwrapResult<T>(result: IpcResult<T>): T {
  if (result.ok) return result.value;
  throw new AppApiError(result.error);
}

/** `[llm]`, `[llm.manus]`, `[agent.swe]` or `built-in default`: for "inherited from ..." */
export function describeConfigSource(source: ConfigSource): string {
  switch (source.kind) {
    case 'default':
      return 'built-in default';
    case 'llm':
      return '[llm]';
    case 'profile':
      return `[llm.${source.profile}]`;
    case 'agent':
      return `[agent.${source.agent}]`;
    case 'agents':
      return '[agent]';
  }
}
