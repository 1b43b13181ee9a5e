/**
 * Model profiles as objects (issue 25 item 3): `[llm]` (named `default`) and each
 * `[llm.NAME]`, which agents use each, what it costs, and the edits Settings makes to
 * them (create, duplicate, rename, delete, assign to an agent). The name rules live here
 * so the form and the host refuse the same names with the same words.
 */
import {
  CONFIG_AGENT_NAMES,
  LLM_SETTING_KEYS,
  type ApiKeyStatus,
  type ConfigAgentName,
  type LlmFields,
} from './config-view';

/** `[llm]` itself, as `--profile default` and the batch columns name it. */
export const DEFAULT_PROFILE = 'default';

/** A Settings page that edits the profile `[llm.NAME]` itself. */
export type ProfileTarget = `profile:${string}`;

export function profileTarget(name: string): ProfileTarget {
  return `profile:${name}`;
}

/** The profile a `profile:NAME` target edits; null for `default` and agent targets. */
export function profileOfTarget(target: string): string | null {
  return target.startsWith('profile:') ? target.slice('profile:'.length) : null;
}

/** A TOML bare key, so `[llm.NAME]` and `llm = "NAME"` round-trip without quotes. */
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Keys of `[llm]` itself: a sub-table with such a name would be read as that key. */
const LLM_KEYS: readonly string[] = [...LLM_SETTING_KEYS, 'api_key', 'scenario'];

/**
 * Why NAME cannot be a new profile's name, or null when it can. An agent's name is
 * refused: `[llm.swe]` is used by swe without being assigned, so creating it would
 * silently change swe's model (its own page edits that profile).
 */
export function profileNameProblem(name: string, existing: readonly string[]): string | null {
  if (name === '') return 'Give the profile a name';
  if (!NAME_PATTERN.test(name)) {
    return `"${name}" cannot be a profile name: use 1-64 letters, digits, "_" or "-", starting with a letter or digit`;
  }
  if (name === DEFAULT_PROFILE) return '"default" is the name of [llm] itself: choose another name';
  if (LLM_KEYS.includes(name)) {
    return `"${name}" is a key of [llm] (it would be read as that setting): choose another name`;
  }
  if ((CONFIG_AGENT_NAMES as readonly string[]).includes(name)) {
    return `"${name}" is an agent's name: [llm.${name}] is that agent's own profile (edit it on the ${name} page), choose another name`;
  }
  if (existing.includes(name)) return `There is already a profile [llm.${name}]`;
  return null;
}

/**
 * How an agent comes to use a profile: its own name (`[llm.swe]` for swe), its
 * `[agent.NAME] llm`, the bare `[agent] llm` of every agent, or nothing (`[llm]`).
 */
export type ProfileUseVia = 'name' | 'agent' | 'agents' | 'default';

export interface ProfileUse {
  agent: ConfigAgentName;
  via: ProfileUseVia;
}

/** US dollars per million tokens, from the profile's own keys or the list of known models. */
export interface ProfilePrice {
  input: number;
  output: number;
  source: 'profile' | 'list';
}

export interface ProfileView {
  /** `default` for `[llm]` */
  name: string;
  /** effective values (`[llm.NAME]` over `[llm]`), with where each comes from */
  llm: LlmFields;
  apiKey: ApiKeyStatus;
  usedBy: ProfileUse[];
  /** null: neither input_price/output_price nor a listed price: the cost is unknown */
  price: ProfilePrice | null;
}

/** What Settings does to profiles; every edit keeps config.toml's comments. */
export type ProfileEdit =
  /** a new `[llm.NAME]`: empty (all of `[llm]`), or a copy of `from` with its key */
  | { action: 'create'; name: string; from?: string }
  /** `[llm.NAME]` becomes `[llm.TO]`; every agent that used it uses it under its new name */
  | { action: 'rename'; name: string; to: string }
  /**
   * removes `[llm.NAME]`; refused while an agent uses it unless `reassignTo` names what
   * those agents use instead (`default`: `[llm]`)
   */
  | { action: 'delete'; name: string; reassignTo?: string }
  /** `[agent.AGENT] llm = PROFILE`; null removes the choice (its own profile, or `[llm]`) */
  | { action: 'assign'; agent: ConfigAgentName; profile: string | null };

/** "swe (by name), manus ([agent.manus] llm)" */
export function describeUse(use: ProfileUse): string {
  switch (use.via) {
    case 'name':
      return `${use.agent} (by name)`;
    case 'agent':
      return `${use.agent} ([agent.${use.agent}] llm)`;
    case 'agents':
      return `${use.agent} ([agent] llm)`;
    case 'default':
      return use.agent;
  }
}

/** What to tell a user whose cost cannot be estimated. */
export const PRICE_UNKNOWN = 'price unknown';
export const PRICE_HOW_TO =
  'Set Input price and Output price (US dollars per million tokens) under Advanced on the profile in Settings → Profiles, or input_price / output_price in its [llm] section of config.toml.';
