/**
 * Writes a definition as the TOML a user edits: prompts as multi-line literal strings
 * (no escapes to read), then the tools, then `[run]`. `agents export` and `agents new`
 * write this; loading it back gives the same data.
 */
import { stringify } from 'smol-toml';
import type { AgentDefinitionData } from '@shared/domain/agent-definition';

function tomlString(value: string): string {
  // A literal multi-line string keeps the text as written; it cannot hold ''' or a
  // trailing quote, and then a basic string with escapes does.
  if (value.includes('\n') && !value.includes("'''") && !value.endsWith("'")) {
    return `'''\n${value}'''`;
  }
  return JSON.stringify(value);
}

function tomlArray(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(', ')}]`;
}

export function definitionToToml(data: AgentDefinitionData): string {
  const lines = [
    `name = ${JSON.stringify(data.name)}`,
    `description = ${tomlString(data.description)}`,
    ...(data.profile !== undefined ? [`profile = ${JSON.stringify(data.profile)}`] : []),
    `tools = ${tomlArray(data.tools)}`,
    `terminate_tools = ${tomlArray(data.terminate_tools)}`,
    '',
    `system_prompt = ${tomlString(data.system_prompt)}`,
    '',
    `next_step_prompt = ${tomlString(data.next_step_prompt)}`,
  ];
  const run = stringify(data.run).trim();
  if (run !== '') lines.push('', '[run]', run);
  return `${lines.join('\n')}\n`;
}
