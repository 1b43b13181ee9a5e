/**
 * The effective config of every agent as the UI shows it: each value with where it comes
 * from (built-in default, `[llm]`, `[llm.NAME]`, `[agent.NAME]`), and for API keys only
 * whether one is set and how it is held. Nothing here ever carries a key.
 */
import {
  AGENT_SETTING_KEYS,
  CONFIG_AGENT_NAMES,
  LLM_SETTING_KEYS,
  type AgentConfigView,
  type AgentSettingFields,
  type ApiKeyStatus,
  type ConfigAgentName,
  type ConfigSource,
  type ConfigView,
  type LlmFields,
  type SecretStorageKind,
} from '@shared/ipc';
import { profileNameFor } from './resolve';
import {
  AGENT_DEFAULTS,
  ALL_AGENTS,
  LLM_DEFAULTS,
  type LlmProfileInput,
  type WorkbenchConfig,
} from './schema';
import { SECRET_REF_PREFIX, type SecretStatus } from './secrets';
import { buildSectionsView } from './sections-view';

export interface ViewContext {
  file: string;
  exists: boolean;
  secretStorage: SecretStorageKind;
  secretStatus(name: string): SecretStatus;
  env: NodeJS.ProcessEnv;
  error?: ConfigView['error'];
  warnings?: string[];
  /** config.toml as parsed (before defaults), to tell set values from defaults */
  raw?: Record<string, unknown>;
}

interface Layer {
  values: LlmProfileInput;
  source: ConfigSource;
}

function llmLayers(config: WorkbenchConfig, profile: string | null): Layer[] {
  const layers: Layer[] = [{ values: config.llm.default, source: { kind: 'llm' } }];
  const named = profile ? config.llm.profiles[profile] : undefined;
  if (profile && named) layers.push({ values: named, source: { kind: 'profile', profile } });
  return layers;
}

function llmFields(layers: readonly Layer[]): LlmFields {
  const fields: Record<string, { value: unknown; source: ConfigSource }> = {};
  for (const key of LLM_SETTING_KEYS) {
    let field: { value: unknown; source: ConfigSource } = {
      value: LLM_DEFAULTS[key],
      source: { kind: 'default' },
    };
    for (const layer of layers) {
      const value = layer.values[key];
      if (value !== undefined) field = { value, source: layer.source };
    }
    // max_concurrency's built-in 0 means "no cap", which the view says with null.
    if (key === 'max_concurrency' && field.value === 0) field = { ...field, value: null };
    fields[key] = field;
  }
  // Every key of LLM_SETTING_KEYS was filled above with a value of the schema's type.
  return fields as LlmFields;
}

export function apiKeyStatus(
  layers: readonly Layer[],
  context: Pick<ViewContext, 'env' | 'secretStatus'>,
): ApiKeyStatus {
  let raw = '';
  let source: ConfigSource = { kind: 'default' };
  for (const layer of layers) {
    if (layer.values.api_key !== undefined) {
      raw = layer.values.api_key;
      source = layer.source;
    }
  }
  if (raw === '') return { isSet: false, storage: 'none', source };
  if (raw.startsWith('env:')) {
    const envVar = raw.slice(4);
    return { isSet: Boolean(context.env[envVar]), storage: 'env', source, envVar };
  }
  if (raw.startsWith(SECRET_REF_PREFIX)) {
    const status = context.secretStatus(raw.slice(SECRET_REF_PREFIX.length));
    return { isSet: status === 'set', storage: 'stored', source };
  }
  return { isSet: true, storage: 'inline', source };
}

function settingFields(config: WorkbenchConfig, agent: ConfigAgentName): AgentSettingFields {
  const own = config.agent[agent] ?? {};
  const shared = config.agent[ALL_AGENTS] ?? {};
  const fields: Record<string, { value: unknown; source: ConfigSource }> = {};
  for (const key of AGENT_SETTING_KEYS) {
    const value = own[key];
    fields[key] =
      value !== undefined
        ? { value, source: { kind: 'agent', agent } }
        : shared[key] !== undefined
          ? { value: shared[key], source: { kind: 'agents' } }
          : { value: AGENT_DEFAULTS[agent][key], source: { kind: 'default' } };
  }
  // Every key of AGENT_SETTING_KEYS was filled above with a value of the schema's type.
  return fields as AgentSettingFields;
}

/** The profile an agent uses, ignoring a name that points at a missing profile. */
function usableProfile(config: WorkbenchConfig, agent: ConfigAgentName): string | null {
  const name = profileNameFor(config, agent);
  return name && config.llm.profiles[name] ? name : null;
}

export function buildConfigView(config: WorkbenchConfig, context: ViewContext): ConfigView {
  const profiles = new Map<ConfigAgentName, string | null>(
    CONFIG_AGENT_NAMES.map((agent) => [agent, usableProfile(config, agent)]),
  );
  const agents = {} as Record<ConfigAgentName, AgentConfigView>;
  for (const agent of CONFIG_AGENT_NAMES) {
    const profile = profiles.get(agent) ?? null;
    const layers = llmLayers(config, profile);
    agents[agent] = {
      agent,
      profile,
      profileSharedWith: profile
        ? CONFIG_AGENT_NAMES.filter((other) => other !== agent && profiles.get(other) === profile)
        : [],
      llm: llmFields(layers),
      apiKey: apiKeyStatus(layers, context),
      settings: settingFields(config, agent),
    };
  }
  const defaultLayers = llmLayers(config, null);
  return {
    file: context.file,
    exists: context.exists,
    defaults: { llm: llmFields(defaultLayers), apiKey: apiKeyStatus(defaultLayers, context) },
    agents,
    profiles: Object.keys(config.llm.profiles).sort(),
    sections: buildSectionsView(config, context.raw),
    secretStorage: context.secretStorage,
    ...(context.error ? { error: context.error } : {}),
    ...(context.warnings ? { warnings: context.warnings } : {}),
  };
}
