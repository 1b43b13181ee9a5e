/**
 * Unsaved edits of one config page, and how they become a `config:save` request. A
 * field's draft is the raw input (validated inline), or null for "reset to inherited".
 * The API key is write-only: the draft holds what the user typed until it is saved,
 * and nothing ever reads a key back from the main process.
 */
import { profileOfTarget } from '@shared/ipc';
import type {
  AgentConfigView,
  ConfigAgentName,
  AgentSettingEdits,
  ApiKeyEdit,
  ConfigField,
  ConfigSaveInput,
  ConfigSource,
  ConfigTarget,
  ConfigView,
  LlmEdits,
} from '@shared/ipc';
import {
  ENV_VAR_NAME,
  FIELD_SPECS,
  fieldSpec,
  parseFieldValue,
  type FieldKey,
  type RawValue,
} from './config-fields';

export interface ConfigDraft {
  fields: Partial<Record<FieldKey, RawValue | null>>;
  apiKey?: ApiKeyEdit;
}

export const EMPTY_DRAFT: ConfigDraft = { fields: {} };

export type FieldErrors = Partial<Record<FieldKey | 'api_key', string>>;

export function isDraftEmpty(draft: ConfigDraft | undefined): boolean {
  return !draft || (Object.keys(draft.fields).length === 0 && draft.apiKey === undefined);
}

/** The page's effective view: an agent's, or the `[llm]` defaults (which have no run settings). */
export function pageView(config: ConfigView, target: ConfigTarget) {
  if (target === 'default') {
    return {
      llm: config.defaults.llm,
      apiKey: config.defaults.apiKey,
      settings: null,
      profile: null,
      profileSharedWith: [],
    };
  }
  const profile = profileOfTarget(target);
  if (profile !== null) {
    const view = config.profileViews.find((p) => p.name === profile);
    return {
      llm: view?.llm ?? config.defaults.llm,
      apiKey: view?.apiKey ?? config.defaults.apiKey,
      settings: null,
      profile,
      profileSharedWith: view?.usedBy.map((use) => use.agent) ?? [],
    };
  }
  const agent: AgentConfigView = config.agents[target as ConfigAgentName];
  return agent;
}

export function currentField(
  config: ConfigView,
  target: ConfigTarget,
  key: FieldKey,
): ConfigField<unknown> | null {
  const view = pageView(config, target);
  const spec = fieldSpec(key);
  if (spec.group === 'llm') return (view.llm as Record<string, ConfigField<unknown>>)[key] ?? null;
  return view.settings
    ? ((view.settings as Record<string, ConfigField<unknown>>)[key] ?? null)
    : null;
}

/**
 * A value is "overridden" on this page when it comes from the section the page writes:
 * the agent's profile (`[llm.NAME]`) for model settings, `[agent.NAME]` for run settings,
 * `[llm]` on the defaults page. Anything else is inherited.
 */
export function isOverridden(
  source: ConfigSource,
  target: ConfigTarget,
  profile: string | null,
): boolean {
  if (target === 'default') return source.kind === 'llm';
  const own = profileOfTarget(target);
  if (own !== null) return source.kind === 'profile' && source.profile === own;
  if (source.kind === 'agent') return source.agent === target;
  if (source.kind === 'profile') return source.profile === (profile ?? target);
  return false;
}

export function validateDraft(
  draft: ConfigDraft,
  target: ConfigTarget,
): { input: ConfigSaveInput; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const llm: Record<string, unknown> = {};
  const settings: Record<string, unknown> = {};
  for (const spec of FIELD_SPECS) {
    if (!(spec.key in draft.fields)) continue;
    if (spec.group === 'settings' && !isAgentTarget(target)) continue;
    const raw = draft.fields[spec.key];
    const out = spec.group === 'llm' ? llm : settings;
    if (raw === null || raw === undefined) {
      out[spec.key] = null;
      continue;
    }
    const parsed = parseFieldValue(spec, raw);
    if ('error' in parsed) errors[spec.key] = parsed.error;
    else out[spec.key] = parsed.value;
  }
  const keyError = apiKeyError(draft.apiKey);
  if (keyError) errors.api_key = keyError;
  const input: ConfigSaveInput = { target };
  if (Object.keys(llm).length > 0) input.llm = llm as LlmEdits;
  if (Object.keys(settings).length > 0) input.settings = settings as AgentSettingEdits;
  if (draft.apiKey) input.apiKey = draft.apiKey;
  return { input, errors };
}

/** An agent's page (with run settings), not `[llm]` or a profile's own page. */
export function isAgentTarget(target: ConfigTarget): target is ConfigAgentName {
  return target !== 'default' && profileOfTarget(target) === null;
}

function apiKeyError(edit: ApiKeyEdit | undefined): string | null {
  if (!edit) return null;
  if (edit.action === 'set') {
    if (edit.value.trim() === '') return 'enter the key, or cancel';
    if (edit.value.length > 4096) return 'at most 4096 characters';
  }
  if (edit.action === 'env' && !ENV_VAR_NAME.test(edit.name)) {
    return 'an environment variable name, e.g. OPENAI_API_KEY';
  }
  return null;
}

/** Maps save errors (`llm.manus.temperature`, `agent.swe.max_steps`...) to the page's fields. */
export function issuesToFieldErrors(
  issues: readonly { path: string; message: string; line?: number }[],
): {
  fields: FieldErrors;
  other: string[];
} {
  const fields: FieldErrors = {};
  const other: string[] = [];
  const known = new Set<string>([...FIELD_SPECS.map((f) => f.key), 'api_key']);
  for (const issue of issues) {
    const last = issue.path.split('.').at(-1) ?? '';
    const where = issue.line ? ` (line ${issue.line})` : '';
    if (known.has(last)) fields[last as FieldKey] = `${issue.message}${where}`;
    else other.push(`${issue.path}: ${issue.message}${where}`);
  }
  return { fields, other };
}
