/**
 * A definition read leniently: what parsed TOML says, each value of the wrong type left
 * out, so the loader can still check the rest of a file with a bad key (every problem
 * at once) and the editor can open a file with problems.
 */
import type {
  AgentDefinitionData,
  AgentDefinitionRunSettings,
} from '@shared/domain/agent-definition';

const RUN_NUMBERS = ['max_steps', 'duplicate_threshold', 'max_messages', 'max_observe'] as const;
const RUN_LISTS = ['breakpoints', 'approve_tools'] as const;

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

function lenientRun(value: unknown): AgentDefinitionRunSettings {
  if (typeof value !== 'object' || value === null) return {};
  const raw = value as Record<string, unknown>;
  const run: AgentDefinitionRunSettings = {};
  for (const key of RUN_NUMBERS) {
    const v = raw[key];
    if (typeof v === 'number' || typeof v === 'bigint') run[key] = Number(v);
  }
  if (raw.tool_choice === 'auto' || raw.tool_choice === 'required' || raw.tool_choice === 'none')
    run.tool_choice = raw.tool_choice;
  const policy = raw.text_reply_policy;
  if (policy === 'reprompt_once' || policy === 'finish' || policy === 'continue')
    run.text_reply_policy = policy;
  for (const key of RUN_LISTS) if (Array.isArray(raw[key])) run[key] = strings(raw[key]);
  return run;
}

/** What parsed TOML says of a definition, values of the wrong type left out. */
export function lenientDefinition(raw: unknown): AgentDefinitionData {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  return {
    name: str(r.name),
    description: str(r.description),
    system_prompt: str(r.system_prompt),
    next_step_prompt: str(r.next_step_prompt),
    tools: strings(r.tools),
    terminate_tools: Array.isArray(r.terminate_tools) ? strings(r.terminate_tools) : ['terminate'],
    ...(typeof r.profile === 'string' ? { profile: r.profile } : {}),
    run: lenientRun(r.run),
  };
}
