/**
 * Resolves the effective settings of one agent from a parsed config: `[llm]`, then the
 * profile `[llm.NAME]` (NAME = `agent.NAME.llm`, else the agent's own name), merged key
 * by key over the defaults (OpenManus's shallow merge); `[agent.NAME]` over `[agent]`
 * (settings of every agent) over the agent defaults. API keys written as `env:NAME` are read from the environment here, and
 * `secret:NAME` from the secret store (keys saved from the UI).
 */
import type { AgentName } from '@shared/domain/agent';
import {
  AGENT_DEFAULTS,
  ALL_AGENTS,
  LLM_DEFAULTS,
  type AgentRunSettings,
  type LlmProfile,
  type LlmProfileInput,
  type WorkbenchConfig,
} from './schema';
import { SECRET_REF_PREFIX, type SecretStore } from './secrets';

export type SecretReader = Pick<SecretStore, 'get'>;

export type ConfigAgentName = AgentName | 'planning';

export function profileNameFor(config: WorkbenchConfig, agent: ConfigAgentName): string | null {
  const chosen = config.agent[agent]?.llm ?? config.agent[ALL_AGENTS]?.llm;
  if (chosen) return chosen;
  return config.llm.profiles[agent] ? agent : null;
}

export function resolveLlmProfile(
  config: WorkbenchConfig,
  agent: ConfigAgentName,
  env: NodeJS.ProcessEnv = process.env,
  secrets?: SecretReader,
): LlmProfile {
  const name = profileNameFor(config, agent);
  if (name && !config.llm.profiles[name]) {
    throw new Error(
      `[agent.${agent}] llm = "${name}" names a profile that does not exist (add [llm.${name}])`,
    );
  }
  return resolveNamedProfile(config, name, env, secrets);
}

/** `[llm.NAME]` merged over `[llm]` (null: `[llm]` alone), with its key resolved. */
export function resolveNamedProfile(
  config: WorkbenchConfig,
  name: string | null,
  env: NodeJS.ProcessEnv = process.env,
  secrets?: SecretReader,
): LlmProfile {
  const merged: Required<LlmProfileInput> = {
    ...LLM_DEFAULTS,
    ...config.llm.default,
    ...(name ? config.llm.profiles[name] : {}),
  };
  return {
    name: name ?? 'default',
    model: merged.model,
    baseUrl: merged.base_url,
    apiKey: resolveSecret(merged.api_key, env, secrets),
    apiType: merged.api_type,
    apiVersion: merged.api_version,
    maxTokens: merged.max_tokens,
    temperature: merged.temperature,
    maxInputTokens: merged.max_input_tokens,
    stream: merged.stream,
    ...(merged.reasoning ? { reasoning: true } : {}),
    timeoutMs: merged.timeout * 1000,
    maxRetries: merged.max_retries,
    scenario: merged.scenario,
    inputPrice: merged.input_price,
    outputPrice: merged.output_price,
    ...(merged.max_concurrency > 0 ? { maxConcurrency: merged.max_concurrency } : {}),
  };
}

export function resolveAgentSettings(
  config: WorkbenchConfig,
  agent: ConfigAgentName,
): AgentRunSettings {
  return runSettingsOf({
    ...AGENT_DEFAULTS[agent],
    ...config.agent[ALL_AGENTS],
    ...config.agent[agent],
  });
}

/** `[agent.NAME]` keys, merged over their defaults, as the loop's settings. */
export function runSettingsOf(merged: (typeof AGENT_DEFAULTS)['manus']): AgentRunSettings {
  return {
    maxSteps: merged.max_steps,
    duplicateThreshold: merged.duplicate_threshold,
    maxMessages: merged.max_messages,
    maxObserve: merged.max_observe,
    toolChoice: merged.tool_choice,
    textReplyPolicy: merged.text_reply_policy,
    breakpoints: [...merged.breakpoints],
    approveTools: [...merged.approve_tools],
  };
}

/**
 * `env:NAME` reads NAME from the environment, `secret:NAME` the secret store; anything
 * else is the key itself. A reference that resolves to nothing gives '' (no key).
 */
export function resolveSecret(
  value: string,
  env: NodeJS.ProcessEnv,
  secrets?: SecretReader,
): string {
  if (value.startsWith('env:')) return env[value.slice(4)] ?? '';
  if (value.startsWith(SECRET_REF_PREFIX)) {
    return secrets?.get(value.slice(SECRET_REF_PREFIX.length)) ?? '';
  }
  return value;
}
