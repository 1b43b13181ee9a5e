/**
 * What a profile edit from Settings changes in config.toml (docs/configuration.md,
 * "Profiles in Settings"): the TOML edits, and the stored API keys that move with the
 * profile. Pure: config-service.ts validates the result, writes it atomically and moves
 * the keys. A rename or a delete leaves no agent on a profile that is gone: every
 * `[agent.NAME] llm` (and `[agent] llm`) that named it follows, and an agent that used
 * it by its own name (`[llm.swe]` for swe) is given `[agent.swe] llm` so its model
 * does not change.
 */
import {
  CONFIG_AGENT_NAMES,
  DEFAULT_PROFILE,
  describeUse,
  profileNameProblem,
  type ProfileEdit,
} from '@shared/ipc';
import { profileUses } from './profiles-view';
import type { WorkbenchConfig } from './schema';
import { SECRET_REF_PREFIX } from './secrets';
import { getPath, type TomlEdit, type TomlValue } from './toml-document';

type RawTable = Record<string, unknown>;

export interface ProfilePlan {
  edits: TomlEdit[];
  /** stored keys to copy before the file is written (the new profile's own key) */
  copySecrets: { from: string; to: string }[];
  /** stored keys nothing points to once the file is written */
  deleteSecrets: string[];
}

/** A refused edit; `conflict` when it is refused because of what uses the profile. */
export class ProfileEditError extends Error {
  constructor(
    readonly code: 'invalid_input' | 'not_found' | 'conflict',
    message: string,
  ) {
    super(message);
    this.name = 'ProfileEditError';
  }
}

/** The secret a profile's key is stored under when saved from Settings. */
const secretNameOf = (profile: string) => `llm.${profile}`;

export function planProfileEdit(
  raw: RawTable,
  config: WorkbenchConfig,
  edit: ProfileEdit,
): ProfilePlan {
  const names = Object.keys(config.llm.profiles);
  const plan: ProfilePlan = { edits: [], copySecrets: [], deleteSecrets: [] };
  const requireProfile = (name: string, allowDefault: boolean) => {
    if (allowDefault && name === DEFAULT_PROFILE) return;
    if (!names.includes(name)) {
      const known = [DEFAULT_PROFILE, ...names].join(', ');
      throw new ProfileEditError(
        'not_found',
        `There is no profile [llm.${name}] in config.toml (profiles: ${known})`,
      );
    }
  };
  const requireNewName = (name: string) => {
    const problem = profileNameProblem(name, names);
    if (problem) throw new ProfileEditError('invalid_input', problem);
  };
  switch (edit.action) {
    case 'create': {
      requireNewName(edit.name);
      if (edit.from !== undefined) requireProfile(edit.from, true);
      const table = edit.from === undefined ? {} : sourceTable(raw, edit.from);
      plan.edits.push(...writeTable(edit.name, withOwnKey(table, edit.name, plan)));
      return plan;
    }
    case 'rename': {
      requireProfile(edit.name, false);
      requireNewName(edit.to);
      const table = withOwnKey(sourceTable(raw, edit.name), edit.to, plan);
      plan.edits.push({ table: ['llm'], key: edit.name, value: undefined });
      plan.edits.push(...writeTable(edit.to, table));
      plan.edits.push(...repoint(raw, config, edit.name, edit.to));
      dropOwnKey(raw, edit.name, plan);
      return plan;
    }
    case 'delete': {
      requireProfile(edit.name, false);
      const users = profileUses(config).get(edit.name) ?? [];
      if (users.length > 0 && edit.reassignTo === undefined) {
        throw new ProfileEditError(
          'conflict',
          `[llm.${edit.name}] is used by ${users.map(describeUse).join(', ')}: choose the profile they use instead, then delete it`,
        );
      }
      if (edit.reassignTo !== undefined) {
        if (edit.reassignTo === edit.name) {
          throw new ProfileEditError(
            'invalid_input',
            'Choose another profile than the one deleted',
          );
        }
        requireProfile(edit.reassignTo, true);
        plan.edits.push(...repoint(raw, config, edit.name, edit.reassignTo));
      }
      plan.edits.push({ table: ['llm'], key: edit.name, value: undefined });
      dropOwnKey(raw, edit.name, plan);
      return plan;
    }
    case 'assign': {
      if (edit.profile !== null) requireProfile(edit.profile, false);
      plan.edits.push({
        table: ['agent', edit.agent],
        key: 'llm',
        value: edit.profile ?? undefined,
      });
      return plan;
    }
  }
}

/** `[llm.NAME]` as written, or `[llm]`'s own keys for `default` (its sub-tables left out). */
function sourceTable(raw: RawTable, name: string): Record<string, TomlValue> {
  const section = getPath(raw, name === DEFAULT_PROFILE ? ['llm'] : ['llm', name]);
  const table: Record<string, TomlValue> = {};
  if (!isTable(section)) return table;
  for (const [key, value] of Object.entries(section)) {
    if (!isTable(value)) table[key] = value as TomlValue;
  }
  return table;
}

/**
 * A copied or renamed profile gets its own stored key (`secret:llm.NEW`), so saving a
 * new key on one never replaces or deletes the other's.
 */
function withOwnKey(
  table: Record<string, TomlValue>,
  name: string,
  plan: ProfilePlan,
): Record<string, TomlValue> {
  const key = table['api_key'];
  if (typeof key !== 'string' || !key.startsWith(SECRET_REF_PREFIX)) return table;
  const to = secretNameOf(name);
  plan.copySecrets.push({ from: key.slice(SECRET_REF_PREFIX.length), to });
  return { ...table, api_key: `${SECRET_REF_PREFIX}${to}` };
}

/** The key stored for a profile that is renamed or deleted goes with it. */
function dropOwnKey(raw: RawTable, name: string, plan: ProfilePlan): void {
  const key = getPath(raw, ['llm', name, 'api_key']);
  if (key === `${SECRET_REF_PREFIX}${secretNameOf(name)}`) {
    plan.deleteSecrets.push(secretNameOf(name));
  }
}

/** An empty table is written as one (`[llm.NAME]` with nothing under it: all of `[llm]`). */
function writeTable(name: string, table: Record<string, TomlValue>): TomlEdit[] {
  return [{ table: ['llm'], key: name, value: table }];
}

/**
 * Every agent on profile FROM is moved to TO: the keys that name FROM are rewritten
 * (removed for `default` when that leaves the agent on `[llm]`), and an agent on FROM
 * by its own name gets `[agent.NAME] llm = TO`.
 */
function repoint(raw: RawTable, config: WorkbenchConfig, from: string, to: string): TomlEdit[] {
  const edits: TomlEdit[] = [];
  const toValue = to === DEFAULT_PROFILE ? undefined : to;
  if (getPath(raw, ['agent', 'llm']) === from) {
    edits.push({ table: ['agent'], key: 'llm', value: toValue });
  }
  for (const agent of CONFIG_AGENT_NAMES) {
    if (getPath(raw, ['agent', agent, 'llm']) === from) {
      edits.push({ table: ['agent', agent], key: 'llm', value: toValue });
    }
  }
  // An agent on its own [llm.NAME] has no key naming it; once that is gone it is on
  // [llm] already, so only another profile needs writing.
  const byName = (profileUses(config).get(from) ?? []).filter((use) => use.via === 'name');
  if (toValue !== undefined) {
    for (const { agent } of byName) edits.push({ table: ['agent', agent], key: 'llm', value: to });
  }
  return edits;
}

function isTable(value: unknown): value is RawTable {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
