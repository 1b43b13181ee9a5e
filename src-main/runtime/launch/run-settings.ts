/**
 * The settings a run was started with, flat and resolved (`llm.model`, `agent.max_steps`,
 * `sandbox.image`, ...), recorded on `run.started` so "compare runs" can say which
 * settings differ between two runs long after config.toml has changed. No API key is
 * ever included (only whether one was set); a base URL loses any user:password and
 * query. A flow records the planner's and each executor's profile under its name
 * (`planning.llm.model`, `swe.agent.max_steps`), and a user executor the definition it ran.
 */
import type { RunSettings } from '@shared/events';
import type { AgentName } from '@shared/domain/agent';
import { resolveAgentSettings, type ConfigAgentName } from '../config/resolve';
import type { AgentRunSettings, LlmProfile, WorkbenchConfig } from '../config/schema';

/** A base URL without credentials or query (both may hold secrets). */
export function safeBaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return '(not a URL)';
  }
}

/** Which client served the model calls: a real API, the built-in demo, or a scenario file. */
function clientKind(profile: LlmProfile): string {
  if (profile.apiType === 'scripted') return 'scripted';
  if (!profile.apiKey && profile.apiType !== 'ollama') return 'demo';
  return 'api';
}

export function agentSettingsRecord(
  profile: LlmProfile,
  settings: AgentRunSettings,
  prefix = '',
): RunSettings {
  const p = prefix ? `${prefix}.` : '';
  return {
    [`${p}llm.profile`]: profile.name,
    [`${p}llm.model`]: profile.model,
    [`${p}llm.client`]: clientKind(profile),
    [`${p}llm.base_url`]: safeBaseUrl(profile.baseUrl),
    [`${p}llm.api_type`]: profile.apiType,
    ...(profile.apiVersion ? { [`${p}llm.api_version`]: profile.apiVersion } : {}),
    [`${p}llm.has_api_key`]: profile.apiKey !== '',
    [`${p}llm.max_tokens`]: profile.maxTokens,
    [`${p}llm.temperature`]: profile.temperature,
    [`${p}llm.max_input_tokens`]: profile.maxInputTokens,
    [`${p}llm.stream`]: profile.stream,
    ...(profile.reasoning ? { [`${p}llm.reasoning`]: true } : {}),
    [`${p}llm.timeout`]: profile.timeoutMs / 1000,
    [`${p}llm.max_retries`]: profile.maxRetries,
    ...(profile.scenario ? { [`${p}llm.scenario`]: profile.scenario } : {}),
    // so "Run again" rebuilds the profile whole (recorded-settings.ts)
    ...(profile.inputPrice ? { [`${p}llm.input_price`]: profile.inputPrice } : {}),
    ...(profile.outputPrice ? { [`${p}llm.output_price`]: profile.outputPrice } : {}),
    ...(profile.maxConcurrency ? { [`${p}llm.max_concurrency`]: profile.maxConcurrency } : {}),
    [`${p}agent.max_steps`]: settings.maxSteps,
    [`${p}agent.duplicate_threshold`]: settings.duplicateThreshold,
    [`${p}agent.max_messages`]: settings.maxMessages,
    [`${p}agent.max_observe`]: settings.maxObserve,
    [`${p}agent.tool_choice`]: settings.toolChoice,
    [`${p}agent.text_reply_policy`]: settings.textReplyPolicy,
  };
}

/** What every run of a session shares: the sandbox, the browser, the MCP servers (names only). */
export function sessionSettingsRecord(config: WorkbenchConfig): RunSettings {
  const { sandbox, browser, mcp } = config;
  return {
    'sandbox.use_sandbox': sandbox.use_sandbox,
    'sandbox.image': sandbox.image,
    'sandbox.work_dir': sandbox.work_dir,
    'sandbox.memory_limit': sandbox.memory_limit,
    'sandbox.workspace_limit': sandbox.workspace_limit,
    'sandbox.cpu_limit': sandbox.cpu_limit,
    'sandbox.pids_limit': sandbox.pids_limit,
    'sandbox.timeout': sandbox.timeout,
    'sandbox.network_enabled': sandbox.network_enabled,
    'browser.headless': browser.headless,
    'browser.max_content_length': browser.max_content_length,
    'browser.keep_screenshots': browser.keep_screenshots,
    // server definitions may carry tokens in their env or args: only their names
    'mcp.servers': Object.keys(mcp.servers).sort().join(', '),
    ...(mcp.agent_server ? { 'mcp.agent_server': mcp.agent_server } : {}),
  };
}

export function flowSettingsRecord(config: WorkbenchConfig): RunSettings {
  const flow = config.flow.planning;
  return {
    'flow.executors': flow.executors.join(', '),
    'flow.max_step_retries': flow.max_step_retries,
    'flow.max_replans': flow.max_replans,
    'flow.carry_memory': flow.carry_memory,
  };
}

/** A flow's user executor as recorded: its profile, its settings and which definition it ran. */
export interface UserExecutorRecord {
  key: string;
  profile: LlmProfile;
  settings: AgentRunSettings;
  definition: { name: string; version?: number; hash: string };
}

/**
 * A planning flow: the planner's profile (its step limit is the run's), each executor's,
 * the flow's own settings and the session's. A user executor also records which
 * definition it ran (`mine.agent.definition = "mine@3"`, `mine.agent.definition_hash`).
 */
export function flowRunSettings(
  config: WorkbenchConfig,
  profileOf: (target: ConfigAgentName) => LlmProfile,
  run: { maxSteps: number; executors: readonly (AgentName | UserExecutorRecord)[] },
): RunSettings {
  const planner = { ...resolveAgentSettings(config, 'planning'), maxSteps: run.maxSteps };
  const record: RunSettings = agentSettingsRecord(profileOf('planning'), planner, 'planning');
  for (const executor of run.executors) {
    if (typeof executor === 'string') {
      Object.assign(
        record,
        agentSettingsRecord(profileOf(executor), resolveAgentSettings(config, executor), executor),
      );
      continue;
    }
    const { key, definition } = executor;
    Object.assign(record, agentSettingsRecord(executor.profile, executor.settings, key), {
      [`${key}.agent.definition`]:
        definition.version !== undefined
          ? `${definition.name}@${definition.version}`
          : definition.name,
      [`${key}.agent.definition_hash`]: definition.hash,
    });
  }
  return { ...record, ...flowSettingsRecord(config), ...sessionSettingsRecord(config) };
}
