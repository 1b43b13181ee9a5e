/**
 * What the contract says about config (DESIGN section 4). The UI edits one agent at a
 * time; every value it sees says where it comes from. API keys never travel to the UI:
 * only whether one is set.
 */
import type { ProfileTarget, ProfileView } from './profiles';
import type { SectionsView } from './settings-sections';

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
/**
 * `default` is the `[llm]` section itself (what every agent inherits); `profile:NAME`
 * is the profile `[llm.NAME]` itself, whoever uses it.
 */
export type ConfigTarget = ConfigAgentName | 'default' | ProfileTarget;

export const LLM_SETTING_KEYS = [
  'model',
  'base_url',
  'api_type',
  'api_version',
  'max_tokens',
  'temperature',
  'max_input_tokens',
  'stream',
  'reasoning',
  'timeout',
  'max_retries',
  'max_concurrency',
  'input_price',
  'output_price',
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
  /** a reasoning model whatever its name (max_completion_tokens, no temperature) */
  reasoning: boolean;
  /** seconds per attempt */
  timeout: number;
  max_retries: number;
  /** model calls of the profile at once, across runs; null: no cap */
  max_concurrency: number | null;
  /** US dollars per million input tokens; 0: the list price of a known model */
  input_price: number;
  /** the same for output tokens */
  output_price: number;
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
  | { kind: 'agent'; agent: string }
  /** the bare `[agent]` table: settings of every agent */
  | { kind: 'agents' };

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
  /** `[llm]` (named `default`) then each `[llm.NAME]`: who uses it, its key, its price */
  profileViews: ProfileView[];
  /** `[sandbox]`, `[browser]` and `[mcp]`, with where each value comes from */
  sections: SectionsView;
  secretStorage: SecretStorageKind;
  /** config.toml does not parse or validate: values shown are defaults, saves refuse */
  error?: { message: string; issues: ConfigIssue[] };
  /**
   * things to fix that do not stop runs: an API key in a config.toml other users can
   * read, a damaged secrets.json
   */
  warnings?: string[];
}

/** Set, replace or clear an API key. `env` stores an `env:NAME` reference. */
export type ApiKeyEdit =
  { action: 'set'; value: string } | { action: 'env'; name: string } | { action: 'clear' };

/** `null` resets a key to inherited (removes it from the target's own section). */
export type LlmEdits = { [K in LlmSettingKey]?: LlmSettingValues[K] | null };
export type AgentSettingEdits = { [K in AgentSettingKey]?: AgentSettingValues[K] | null };

export interface ConfigSaveInput {
  /**
   * `default` writes `[llm]`; an agent writes the profile it uses (`[llm.AGENT]` if none);
   * `profile:NAME` writes `[llm.NAME]`
   */
  target: ConfigTarget;
  llm?: LlmEdits;
  /** written to `[agent.AGENT]`; only for an agent target */
  settings?: AgentSettingEdits;
  apiKey?: ApiKeyEdit;
}

export interface ConfigImportInput {
  /** the text of an OpenManus `config/config.toml`, or of its `config/mcp.json` */
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
  /** where the previous config.toml was kept; absent when there was none */
  backupFile?: string;
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
