/**
 * The typed contract between the runtime host (Electron main or `workbench serve`) and
 * any UI (DESIGN section 5). Requests are `domain:verb`; pushes are past-tense facts.
 * Channel strings live only here. This module has no runtime dependencies so the
 * sandboxed preload can import it without bundling a validator; the zod schemas that
 * main uses to validate inputs are in `ipc-schemas.ts`.
 */
import type { AgentName, AgentState, FlowName, RunOutcome, TokenUsage } from './domain/agent';
import type { RunEvent, SandboxStatus } from './events';

// ---------------------------------------------------------------------------------------
// Runs

export interface RunStartInput {
  task: string;
  agent?: AgentName;
  flow?: FlowName;
  maxSteps?: number;
  /** the workspace (and its sandbox) the run works in; defaults to the app's session */
  sessionId?: string;
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

// ---------------------------------------------------------------------------------------
// Config (DESIGN section 4). The UI edits one agent at a time; every value it sees says
// where it comes from. API keys never travel to the UI: only whether one is set.

/** Agents with a config page: the runnable agents and the planning flow. */
export const CONFIG_AGENT_NAMES = [
  'manus',
  'swe',
  'browser',
  'mcp',
  'toolcall',
  'planning',
] as const;
export type ConfigAgentName = (typeof CONFIG_AGENT_NAMES)[number];
/** `default` is the `[llm]` section itself (what every agent inherits). */
export type ConfigTarget = ConfigAgentName | 'default';

export const LLM_SETTING_KEYS = [
  'model',
  'base_url',
  'api_type',
  'api_version',
  'max_tokens',
  'temperature',
  'max_input_tokens',
  'stream',
  'timeout',
  'max_retries',
] as const;
export type LlmSettingKey = (typeof LLM_SETTING_KEYS)[number];
/** `scripted` replays the bundled demo scenarios (or a scenario file) without a key */
export const CONFIG_API_TYPES = ['openai', 'azure', 'ollama', 'scripted'] as const;

export interface LlmSettingValues {
  model: string;
  base_url: string;
  api_type: (typeof CONFIG_API_TYPES)[number];
  api_version: string;
  max_tokens: number;
  temperature: number;
  /** per-request context guard */
  max_input_tokens: number;
  stream: boolean;
  /** seconds per attempt */
  timeout: number;
  max_retries: number;
}

export const AGENT_SETTING_KEYS = [
  'max_steps',
  'duplicate_threshold',
  'max_messages',
  'max_observe',
  'tool_choice',
  'text_reply_policy',
] as const;
export type AgentSettingKey = (typeof AGENT_SETTING_KEYS)[number];
export const CONFIG_TOOL_CHOICES = ['auto', 'required', 'none'] as const;
export const CONFIG_TEXT_REPLY_POLICIES = ['reprompt_once', 'finish', 'continue'] as const;

export interface AgentSettingValues {
  max_steps: number;
  duplicate_threshold: number;
  max_messages: number;
  max_observe: number;
  tool_choice: (typeof CONFIG_TOOL_CHOICES)[number];
  text_reply_policy: (typeof CONFIG_TEXT_REPLY_POLICIES)[number];
}

/** Where an effective value comes from. */
export type ConfigSource =
  | { kind: 'default' }
  | { kind: 'llm' }
  | { kind: 'profile'; profile: string }
  | { kind: 'agent'; agent: string };

export interface ConfigField<T> {
  value: T;
  source: ConfigSource;
}

/** How an API key is held: never the key itself. */
export type ApiKeyStorage = 'none' | 'stored' | 'env' | 'inline';

export interface ApiKeyStatus {
  /** a usable key is there (for `env:NAME`, the variable is set) */
  isSet: boolean;
  storage: ApiKeyStorage;
  /** the section the key comes from; `default` when no section sets one */
  source: ConfigSource;
  /** for `env:NAME` references: NAME */
  envVar?: string;
}

export type LlmFields = { [K in LlmSettingKey]: ConfigField<LlmSettingValues[K]> };
export type AgentSettingFields = { [K in AgentSettingKey]: ConfigField<AgentSettingValues[K]> };

export interface AgentConfigView {
  agent: ConfigAgentName;
  /** the `[llm.NAME]` profile this agent uses, or null for `[llm]` alone */
  profile: string | null;
  /** other agents using the same named profile (an edit here changes them too) */
  profileSharedWith: ConfigAgentName[];
  llm: LlmFields;
  apiKey: ApiKeyStatus;
  settings: AgentSettingFields;
}

/** How API keys saved from the UI are protected on this machine. */
export type SecretStorageKind =
  /** Electron safeStorage backed by the OS keychain / DPAPI / libsecret */
  | 'os-encrypted'
  /** Electron safeStorage with no OS secret store (Linux basic_text): obfuscated only */
  | 'basic-text'
  /** headless: a file readable only by the user (0600) */
  | 'user-file';

export interface ConfigIssue {
  /** key path, e.g. `llm.manus.temperature` */
  path: string;
  message: string;
  /** 1-based line in config.toml, when known */
  line?: number;
}

export interface ConfigView {
  /** absolute path of config.toml */
  file: string;
  exists: boolean;
  /** the `[llm]` section: what agents inherit */
  defaults: { llm: LlmFields; apiKey: ApiKeyStatus };
  agents: Record<ConfigAgentName, AgentConfigView>;
  /** names of the `[llm.NAME]` profiles in the file */
  profiles: string[];
  secretStorage: SecretStorageKind;
  /** config.toml does not parse or validate: values shown are defaults, saves refuse */
  error?: { message: string; issues: ConfigIssue[] };
}

/** Set, replace or clear an API key. `env` stores an `env:NAME` reference. */
export type ApiKeyEdit =
  { action: 'set'; value: string } | { action: 'env'; name: string } | { action: 'clear' };

/** `null` resets a key to inherited (removes it from the target's own section). */
export type LlmEdits = { [K in LlmSettingKey]?: LlmSettingValues[K] | null };
export type AgentSettingEdits = { [K in AgentSettingKey]?: AgentSettingValues[K] | null };

export interface ConfigSaveInput {
  /** `default` writes `[llm]`; an agent writes the profile it uses (`[llm.AGENT]` if none) */
  target: ConfigTarget;
  llm?: LlmEdits;
  /** written to `[agent.AGENT]`; not allowed for `default` */
  settings?: AgentSettingEdits;
  apiKey?: ApiKeyEdit;
}

export interface ConfigImportInput {
  /** the text of an OpenManus `config/config.toml` */
  content: string;
  fileName?: string;
  /** report what would be imported without saving */
  dryRun?: boolean;
}

export interface ConfigImportResult {
  config: ConfigView;
  /** key paths taken over, e.g. `llm.model`, `browser.headless` */
  imported: string[];
  /** key paths left out, and why */
  ignored: { path: string; reason: string }[];
  isSaved: boolean;
}

export interface ConnectionTestInput {
  target: ConfigTarget;
  /** unsaved edits to test before saving them */
  llm?: LlmEdits;
  apiKey?: ApiKeyEdit;
}

export interface ConnectionTestResult {
  ok: boolean;
  model: string;
  baseUrl: string;
  latencyMs: number;
  /** what happened, safe to show (never contains the key) */
  message: string;
  /** HTTP status of the failed request, when there was one */
  status?: number;
}

// ---------------------------------------------------------------------------------------
// Sandbox, human input, app

export interface SandboxStatusView {
  docker: { isAvailable: boolean; version?: string; error?: string };
  useSandbox: boolean;
  image: string;
  limits: {
    memory: string;
    cpus: number;
    pids: number;
    timeoutSeconds: number;
    isNetworkEnabled: boolean;
  };
  sessionId: string;
  /** the session's container as last reported by `sandbox.changed`; `none` before first use */
  status: SandboxStatus | 'none';
  containerId?: string;
  error?: string;
}

export interface HumanAnswerInput {
  runId: string;
  toolCallId: string;
  answer: string;
}

export interface AppInfo {
  version: string;
  mode: 'desktop' | 'browser';
  /** WORKBENCH_HOME */
  home: string;
  configFile: string;
  /** the session new runs use unless told otherwise */
  sessionId: string;
  secretStorage: SecretStorageKind;
}

export type EmptyInput = Record<string, never>;

/** request channel -> input and output */
export interface RequestMap {
  'app:info': { input: EmptyInput; output: AppInfo };
  'run:start': { input: RunStartInput; output: { runId: string } };
  'run:stop': { input: { runId: string }; output: { stopped: boolean } };
  'runs:list': { input: EmptyInput; output: RunSummary[] };
  'runs:get': { input: RunGetInput; output: RunSnapshot };
  'runs:export': { input: { runId: string }; output: RunExport };
  'runs:import': { input: RunImportInput; output: RunImportResult };
  'config:get': { input: EmptyInput; output: ConfigView };
  'config:save': { input: ConfigSaveInput; output: ConfigView };
  'config:import-openmanus': { input: ConfigImportInput; output: ConfigImportResult };
  'config:test-connection': { input: ConnectionTestInput; output: ConnectionTestResult };
  'human:answer': { input: HumanAnswerInput; output: { accepted: true } };
  'sandbox:status': { input: { sessionId?: string }; output: SandboxStatusView };
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
  /** summaries that changed outside the event stream (imported, found interrupted) */
  'runs:changed': RunSummary[];
  /** config.toml was saved or imported */
  'config:changed': ConfigView;
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
  'config:get',
  'config:save',
  'config:import-openmanus',
  'config:test-connection',
  'human:answer',
  'sandbox:status',
] as const satisfies readonly RequestChannel[];
export const PUSH_CHANNELS = [
  'run:events',
  'runs:changed',
  'config:changed',
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
  getConfig: 'config:get',
  saveConfig: 'config:save',
  importOpenManusConfig: 'config:import-openmanus',
  testConnection: 'config:test-connection',
  answerHuman: 'human:answer',
  getSandboxStatus: 'sandbox:status',
} as const satisfies Record<string, RequestChannel>;
export const API_SUBSCRIPTIONS = {
  onRunEvents: 'run:events',
  onRunsChanged: 'runs:changed',
  onConfigChanged: 'config:changed',
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
  }
}
