/** A ConfigView as the main process would describe a small config.toml, for UI tests. */
import {
  CONFIG_AGENT_NAMES,
  type AgentConfigView,
  type ConfigAgentName,
  type ConfigSource,
  type ConfigView,
  type LlmFields,
  type McpServerView,
  type ProfileView,
  type SectionsView,
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
    max_concurrency: null as number | null,
    input_price: 0,
    output_price: 0,
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
    profileViews: [
      profileView(
        'default',
        llmFields(),
        CONFIG_AGENT_NAMES.filter((a) => !models[a]),
      ),
      ...Object.entries(models).map(([agent, model]) =>
        profileView(agent, llmFields({ model }, { kind: 'profile', profile: agent }), [
          agent as ConfigAgentName,
        ]),
      ),
    ],
    sections: sectionsView(),
    secretStorage: 'user-file',
  };
}

/** A profile as Settings lists it: the agents given use it by name (or `[llm]` for `default`). */
export function profileView(
  name: string,
  llm: LlmFields,
  users: readonly ConfigAgentName[] = [],
  price: ProfileView['price'] = null,
): ProfileView {
  return {
    name,
    llm,
    apiKey: { isSet: true, storage: 'stored', source: { kind: 'llm' } },
    usedBy: users.map((agent) => ({ agent, via: name === 'default' ? 'default' : 'name' })),
    price,
  };
}

/** `[sandbox]`, `[browser]`, `[telemetry]` and `[mcp]` of a config that sets only the sandbox image. */
export function sectionsView(servers: McpServerView[] = []): SectionsView {
  const d = <T>(value: T) => ({ value, source: 'default' as const });
  return {
    sandbox: {
      image: { value: 'agent-workbench/sandbox:local', source: 'file' },
      use_sandbox: d(true),
      network_enabled: d(false),
      memory_limit: d('512m'),
      cpu_limit: d(1),
      pids_limit: d(256),
      timeout: d(300),
      workspace_limit: d('2g'),
    },
    browser: {
      headless: d(true),
      executable_path: d(''),
      max_content_length: d(2000),
      keep_screenshots: d(3),
    },
    telemetry: { otlp_endpoint: d(''), receiver_port: d(0) },
    mcp: { servers, agentServer: null },
  };
}
