/**
 * "Run again" with the settings a run recorded (issue 25 item 10): a baseline re-run after
 * a profile change used to take the new model and fail. `run.started.settings` holds the
 * run's model profile and agent settings, flat and without the API key (run-settings.ts);
 * this rebuilds a config in which the run's agent (or each participant of a flow) uses
 * exactly those values, under the profile's recorded name, so the re-run asks the same
 * model at the same endpoint with the same parameters.
 *
 * The key is never recorded: it comes from today's config, from the profile of the same
 * name at the same base URL, else from any profile at that base URL. When the recorded
 * run had a key and no profile has one for its base URL now, or the run recorded no
 * settings (older runs), the re-run is refused with why and what to do. The sandbox,
 * browser and MCP servers are today's. A flow's user executor runs again as the version of
 * its definition it ran, on that definition's profile of today; its planner as the user
 * agent version it ran (on its recorded profile), or as the flow's own planner when it ran
 * that, whatever `[flow.planning] planner` says today.
 */
import { CONFIG_AGENT_NAMES, LLM_SETTING_KEYS } from '@shared/domain/config-view';
import type { RunSettings } from '@shared/events';
import {
  LLM_DEFAULTS,
  agentSettingsSchema,
  llmProfileSchema,
  planningFlowSchema,
  type AgentSettingsInput,
  type LlmProfileInput,
  type PlanningFlowSettings,
  type WorkbenchConfig,
} from '../config/schema';
import type { ConfigAgentName } from '../config/resolve';
import { safeBaseUrl } from './run-settings';
import type { RecordedRun } from '../runs/run-types';

export type { RecordedRun };

export class RerunSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RerunSettingsError';
  }
}

/** Resolves a key as config.toml writes it (`env:NAME`, `secret:NAME`, or the key itself). */
export type KeyResolver = (raw: string) => string;

const TODAY = 'use “Run again with today’s settings” (config.toml as it is now)';

/**
 * Recorded `llm.*` keys that map one to one onto a profile's keys: the Settings keys but
 * the model and base URL (rebuilt with the key above), and the scenario file.
 */
const PROFILE_KEYS = [
  ...LLM_SETTING_KEYS.filter((key) => key !== 'model' && key !== 'base_url'),
  'scenario',
] satisfies readonly (keyof LlmProfileInput)[];

/** Recorded `agent.*` keys. */
const AGENT_KEYS = [
  'max_steps',
  'duplicate_threshold',
  'max_messages',
  'max_observe',
  'tool_choice',
  'text_reply_policy',
] as const satisfies readonly (keyof AgentSettingsInput)[];

/**
 * The config a re-run of `run` starts from: `config` with the run's recorded profile and
 * agent settings in place. Throws RerunSettingsError when they cannot be rebuilt.
 */
export function withRecordedSettings(
  config: WorkbenchConfig,
  run: RecordedRun,
  resolveKey: KeyResolver,
): WorkbenchConfig {
  const who = run.isImported
    ? `Run ${run.runId} was imported from another machine; it`
    : `Run ${run.runId}`;
  const settings = run.settings;
  if (!settings || Object.keys(settings).length === 0) {
    throw new RerunSettingsError(
      `${who} was recorded before runs kept their settings, so they cannot be rebuilt: ${TODAY}.`,
    );
  }
  let next = config;
  for (const { prefix, target } of participantsOf(run, settings)) {
    next = withParticipant(next, { who, settings, prefix, target }, resolveKey);
  }
  return run.flow === 'planning' ? withFlowSettings(next, settings, who) : next;
}

function participantsOf(
  run: RecordedRun,
  settings: RunSettings,
): { prefix: string; target: ConfigAgentName }[] {
  if (!run.flow) {
    if (!isConfigAgent(run.agent)) {
      throw new RerunSettingsError(
        `Run ${run.runId} names no agent this app has ("${run.agent}").`,
      );
    }
    return [{ prefix: '', target: run.agent }];
  }
  // A flow records each participant's keys under its name: `planning.llm.model`, `swe.llm.model`.
  const names = Object.keys(settings).flatMap((key) => {
    const name = /^([a-z]+)\.llm\.model$/.exec(key)?.[1];
    return name && isConfigAgent(name) ? [name] : [];
  });
  return names.map((target) => ({ prefix: `${target}.`, target }));
}

function isConfigAgent(name: string): name is ConfigAgentName {
  return (CONFIG_AGENT_NAMES as readonly string[]).includes(name);
}

interface Participant {
  who: string;
  settings: RunSettings;
  prefix: string;
  target: ConfigAgentName;
}

function withParticipant(
  config: WorkbenchConfig,
  { who, settings, prefix, target }: Participant,
  resolveKey: KeyResolver,
): WorkbenchConfig {
  const get = (key: string) => settings[`${prefix}${key}`];
  const model = get('llm.model');
  const url = get('llm.base_url');
  if (typeof model !== 'string' || typeof url !== 'string') {
    throw new RerunSettingsError(
      `${who} did not record the model of ${target} (llm.model, llm.base_url), so its settings cannot be rebuilt: ${TODAY}.`,
    );
  }
  const profileName =
    typeof get('llm.profile') === 'string' ? String(get('llm.profile')) : 'default';
  const needsKey = get('llm.has_api_key') === true;
  const source = keySource(config, profileName, url, needsKey, resolveKey);
  if (needsKey && !source) {
    throw new RerunSettingsError(
      `${who} used the profile "${profileName}" (model ${model} at ${url}) with an API key, and no profile in config.toml has a key for ${url} now (a run never records its key). Add a profile with that base URL and its key in Settings → Models, or ${TODAY}.`,
    );
  }
  const recorded: LlmProfileInput = { model };
  for (const key of PROFILE_KEYS) {
    const value = get(`llm.${key}`);
    if (value !== undefined)
      Object.assign(recorded, { [key]: key === 'timeout' ? Number(value) : value });
  }
  const checked = llmProfileSchema.safeParse(recorded);
  if (!checked.success) {
    throw new RerunSettingsError(
      `${who} recorded model settings this app does not accept (${checked.error.issues.map((i) => `llm.${i.path.join('.')}: ${i.message}`).join('; ')}): ${TODAY}.`,
    );
  }
  // Every key set, so nothing of today's [llm] is merged under it (resolve.ts merges it).
  const profile: LlmProfileInput = {
    ...LLM_DEFAULTS,
    ...source?.input,
    // keys a run recorded before they were recorded (prices, max_concurrency) stay as today
    ...checked.data,
    base_url: source?.input.base_url ?? url,
    api_key: needsKey ? (source?.input.api_key ?? '') : '',
  };
  const agentValues: AgentSettingsInput = {};
  for (const key of AGENT_KEYS) {
    const value = get(`agent.${key}`);
    if (value !== undefined) Object.assign(agentValues, { [key]: value });
  }
  const agentChecked = agentSettingsSchema.partial().safeParse(agentValues);
  if (!agentChecked.success) {
    throw new RerunSettingsError(
      `${who} recorded agent settings this app does not accept (${agentChecked.error.issues.map((i) => `agent.${i.path.join('.')}: ${i.message}`).join('; ')}): ${TODAY}.`,
    );
  }
  return {
    ...config,
    llm: { ...config.llm, profiles: { ...config.llm.profiles, [profileName]: profile } },
    agent: {
      ...config.agent,
      [target]: { ...config.agent[target], ...agentChecked.data, llm: profileName },
    },
  };
}

/**
 * Where a re-run's key (and full base URL: the recorded one lost any query) comes from:
 * the profile of the recorded name at the recorded base URL, else any profile there; with
 * a key when the run had one.
 */
function keySource(
  config: WorkbenchConfig,
  name: string,
  url: string,
  needsKey: boolean,
  resolveKey: KeyResolver,
): { name: string; input: Required<LlmProfileInput> } | undefined {
  const candidates = ['default', ...Object.keys(config.llm.profiles)].map((candidate) => ({
    name: candidate,
    input: {
      ...LLM_DEFAULTS,
      ...config.llm.default,
      ...(candidate === 'default' ? {} : config.llm.profiles[candidate]),
    } as Required<LlmProfileInput>,
  }));
  const usable = candidates.filter(
    (c) =>
      safeBaseUrl(c.input.base_url) === url && (!needsKey || resolveKey(c.input.api_key) !== ''),
  );
  return usable.find((c) => c.name === name) ?? usable[0];
}

function withFlowSettings(config: WorkbenchConfig, settings: RunSettings, who: string) {
  const executors = settings['flow.executors'];
  const ranPlanner = settings['planning.agent.definition'];
  const recorded = {
    ...(typeof executors === 'string'
      ? {
          executors: executors
            .split(',')
            .map((e) => e.trim())
            .filter(Boolean)
            .map((e) => pinnedExecutor(settings, e)),
        }
      : {}),
    ...pick(settings, 'flow.', ['max_step_retries', 'max_replans', 'carry_memory']),
    // the planner it ran: a user agent's recorded version (`mine@3`), else the flow's own
    ...(typeof ranPlanner === 'string' ? { planner: ranPlanner } : {}),
  };
  const checked = planningFlowSchema.partial().safeParse(recorded);
  if (!checked.success) {
    throw new RerunSettingsError(
      `${who} recorded flow settings this app does not accept (${checked.error.issues.map((i) => `flow.${i.path.join('.')}: ${i.message}`).join('; ')}): ${TODAY}.`,
    );
  }
  // The recorded values themselves: the parse only checks them (it would add defaults).
  // today's planner never replaces the one the run ran (none: the flow's own)
  const { planner: _today, ...today } = config.flow.planning;
  const planning = { ...today, ...(recorded as Partial<PlanningFlowSettings>) };
  return { ...config, flow: { ...config.flow, planning } };
}

/**
 * A user agent executing plan steps runs again as the version it ran (`mine` recorded
 * `mine.agent.definition = "mine@3"`), not as its newest text.
 */
function pinnedExecutor(settings: RunSettings, executor: string): string {
  const ran = settings[`${executor}.agent.definition`];
  return typeof ran === 'string' && ran.startsWith(`${executor}@`) ? ran : executor;
}

function pick(settings: RunSettings, prefix: string, keys: readonly string[]) {
  const out: Record<string, string | number | boolean> = {};
  for (const key of keys) {
    const value = settings[`${prefix}${key}`];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
