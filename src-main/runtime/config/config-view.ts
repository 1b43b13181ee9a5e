/**
 * The effective config of every agent as the UI shows it: each value with where it comes
 * from (built-in default, `[llm]`, `[llm.NAME]`, `[agent.NAME]`), and for API keys only
 * whether one is set and how it is held. Nothing here ever carries a key.
 */
import {
  AGENT_SETTING_KEYS,
  CONFIG_AGENT_NAMES,
  type AgentConfigView,
  type AgentSettingFields,
  type ConfigAgentName,
  type ConfigSource,
  type ConfigView,
  type SecretStorageKind,
} from '@shared/ipc';
import { apiKeyStatus, llmFields, llmLayers } from './llm-fields';
import { profileNameFor } from './resolve';
import { AGENT_DEFAULTS, ALL_AGENTS, type WorkbenchConfig } from './schema';
import { SECRET_REF_PREFIX, type SecretStatus } from './secrets';
import { buildProfileViews } from './profiles-view';
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

/** Whether a header's reference gives a value now (the UI learns only that). */
function headerIsSet(ref: string, context: ViewContext): boolean {
  if (ref.startsWith('env:')) return Boolean(context.env[ref.slice(4)]);
  if (ref.startsWith(SECRET_REF_PREFIX)) {
    return context.secretStatus(ref.slice(SECRET_REF_PREFIX.length)) === 'set';
  }
  return ref !== '';
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
    profileViews: buildProfileViews(config, context),
    sections: buildSectionsView(config, context.raw, (ref) => headerIsSet(ref, context)),
    secretStorage: context.secretStorage,
    ...(context.error ? { error: context.error } : {}),
    ...(context.warnings ? { warnings: context.warnings } : {}),
  };
}
