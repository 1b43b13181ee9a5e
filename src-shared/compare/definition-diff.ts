/**
 * "Agent definition differs": what changed between the agent definitions two runs
 * recorded on `run.started` (docs/agents.md): the prompts and the tool lists as line
 * diffs, the profile and the run settings as values. `runs diff` and the compare view
 * show it above the steps, so a prompt change is named before the divergence it caused.
 */
import type { RecordedAgentDefinition } from '../domain/agent-definition';

export interface DefinitionFieldChange {
  /** `system_prompt`, `next_step_prompt`, `tools`, `terminate_tools`, `profile`, `run.max_steps`... */
  key: string;
  /** the text on each side: prompts as written (templates), lists one entry a line */
  a: string;
  b: string;
}

export interface AgentDefinitionDiff {
  /** `mine v3 (1a2b…)` for each side */
  a: string;
  b: string;
  changes: DefinitionFieldChange[];
}

export function definitionLabel(d: RecordedAgentDefinition): string {
  const version = d.version !== undefined ? ` v${d.version}` : '';
  return `${d.definition.name}${version} (${d.hash.slice(0, 8)})`;
}

const lines = (values: readonly string[]) => values.join('\n');

function fieldsOf(d: RecordedAgentDefinition): Record<string, string> {
  const def = d.definition;
  const fields: Record<string, string> = {
    description: def.description,
    system_prompt: def.system_prompt,
    next_step_prompt: def.next_step_prompt,
    tools: lines(def.tools),
    terminate_tools: lines(def.terminate_tools),
    profile: def.profile ?? '(default)',
  };
  for (const [key, value] of Object.entries(def.run)) {
    fields[`run.${key}`] = Array.isArray(value) ? lines(value) : String(value);
  }
  return fields;
}

/**
 * What differs between two recorded definitions; null when they are the same text or a
 * run did not record one (runs recorded before definitions were, flows).
 */
export function diffAgentDefinitions(
  a: RecordedAgentDefinition | undefined,
  b: RecordedAgentDefinition | undefined,
): AgentDefinitionDiff | null {
  if (!a || !b) return null;
  const fa = fieldsOf(a);
  const fb = fieldsOf(b);
  const changes: DefinitionFieldChange[] = [];
  for (const key of new Set([...Object.keys(fa), ...Object.keys(fb)])) {
    const va = fa[key] ?? '(not set)';
    const vb = fb[key] ?? '(not set)';
    if (va !== vb) changes.push({ key, a: va, b: vb });
  }
  if (changes.length === 0) return null;
  return { a: definitionLabel(a), b: definitionLabel(b), changes };
}
