/**
 * A profile's values as the UI shows them: `[llm]` with `[llm.NAME]` on top, each value
 * with the section it comes from, and the API key only as whether one is set and how it
 * is held. Shared by the agents' pages and the list of profiles.
 */
import {
  LLM_SETTING_KEYS,
  type ApiKeyStatus,
  type ConfigSource,
  type LlmFields,
} from '@shared/ipc';
import { LLM_DEFAULTS, type LlmProfileInput, type WorkbenchConfig } from './schema';
import { SECRET_REF_PREFIX, type SecretStatus } from './secrets';

export interface KeyContext {
  secretStatus(name: string): SecretStatus;
  env: NodeJS.ProcessEnv;
}

export interface Layer {
  values: LlmProfileInput;
  source: ConfigSource;
}

export function llmLayers(config: WorkbenchConfig, profile: string | null): Layer[] {
  const layers: Layer[] = [{ values: config.llm.default, source: { kind: 'llm' } }];
  const named = profile ? config.llm.profiles[profile] : undefined;
  if (profile && named) layers.push({ values: named, source: { kind: 'profile', profile } });
  return layers;
}

export function llmFields(layers: readonly Layer[]): LlmFields {
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

export function apiKeyStatus(layers: readonly Layer[], context: KeyContext): ApiKeyStatus {
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
