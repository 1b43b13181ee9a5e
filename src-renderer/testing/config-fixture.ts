/** A ConfigView as the main process would describe a small config.toml, for UI tests. */
import {
  CONFIG_AGENT_NAMES,
  type AgentConfigView,
  type ConfigAgentName,
  type ConfigSource,
  type ConfigView,
  type LlmFields,
} from '@shared/ipc';

const def: ConfigSource = { kind: 'default' };

export function llmFields(
  overrides: Partial<{ [K in keyof LlmFields]: LlmFields[K]['value'] }> = {},
  source: ConfigSource = def,
): LlmFields {
  const base = {
    model: 'gpt-4o',
    base_url: 'https://api.openai.com/v1',
    api_type: 'openai' as const,
    api_version: '',
    max_tokens: 4096,
    temperature: 1,
    max_input_tokens: 120000,
    stream: true,
    timeout: 300,
    max_retries: 4,
  };
  const out: Record<string, { value: unknown; source: ConfigSource }> = {};
  for (const [key, value] of Object.entries(base)) {
    const isOverridden = key in overrides;
    out[key] = {
      value: isOverridden ? overrides[key as keyof typeof overrides] : value,
      source: isOverridden ? source : def,
    };
  }
  return out as LlmFields;
}

export function agentView(agent: ConfigAgentName, model?: string): AgentConfigView {
  const profileSource: ConfigSource = { kind: 'profile', profile: agent };
  return {
    agent,
    profile: model ? agent : null,
    profileSharedWith: [],
    llm: llmFields(model ? { model } : {}, profileSource),
    apiKey: { isSet: true, storage: 'stored', source: { kind: 'llm' } },
    settings: {
      max_steps: { value: agent === 'toolcall' ? 30 : 20, source: def },
      duplicate_threshold: { value: 2, source: def },
      max_messages: { value: 100, source: def },
      max_observe: { value: 10000, source: def },
      tool_choice: { value: 'auto', source: def },
      text_reply_policy: { value: 'reprompt_once', source: def },
    },
  };
}

export function configView(models: Partial<Record<ConfigAgentName, string>> = {}): ConfigView {
  const agents = Object.fromEntries(
    CONFIG_AGENT_NAMES.map((a) => [a, agentView(a, models[a])]),
  ) as Record<ConfigAgentName, AgentConfigView>;
  return {
    file: '/tmp/home/config.toml',
    exists: true,
    defaults: {
      llm: llmFields(),
      apiKey: { isSet: true, storage: 'stored', source: { kind: 'llm' } },
    },
    agents,
    profiles: Object.keys(models),
    secretStorage: 'user-file',
  };
}
