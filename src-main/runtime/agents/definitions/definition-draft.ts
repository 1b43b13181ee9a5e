/**
 * A definition as the editor holds it: what a file says as far as it can be read (a file
 * with problems still opens, with its problems beside their fields), and the problems of
 * a definition the editor sends, found by the loader that runs would use, as data.
 */
import { parse as parseToml } from 'smol-toml';
import type { AgentDefinitionData } from '@shared/domain/agent-definition';
import type { AgentFieldIssue, PromptTokens } from '@shared/domain/agent-editor';
import { isAgentName } from '@shared/domain/agent';
import { countTextTokens } from '../../llm/token-count';
import { definitionText } from './definition-text-edit';
import { lenientDefinition } from './lenient-definition';
import {
  AgentDefinitionError,
  loadDefinitionText,
  type DefinitionContext,
} from './load-definition';

/**
 * What a definition's text says, read leniently (values of the wrong type left out), so
 * a file with problems opens in the editor; undefined when it is not TOML at all.
 */
export function readDraft(text: string): AgentDefinitionData | undefined {
  try {
    return lenientDefinition(parseToml(text));
  } catch {
    return undefined;
  }
}

export function issuesOf(error: unknown): AgentFieldIssue[] {
  if (!(error instanceof AgentDefinitionError)) throw error;
  return error.issues.map((i) => ({
    path: i.path,
    message: i.message,
    ...(i.line !== undefined ? { line: i.line } : {}),
  }));
}

export function promptTokens(data: Pick<AgentDefinitionData, keyof PromptTokens>): PromptTokens {
  return {
    system_prompt: countTextTokens(data.system_prompt),
    next_step_prompt: countTextTokens(data.next_step_prompt),
  };
}

/**
 * The text a definition is saved as (in `previous`'s layout, comments kept, when it is the
 * file's current text), and its problems (none: it loads and runs).
 */
export function checkDraft(
  data: AgentDefinitionData,
  context: DefinitionContext,
  previous?: string,
): { text: string; issues: AgentFieldIssue[] } {
  const text = definitionText(data, previous);
  const issues: AgentFieldIssue[] = [];
  if (isAgentName(data.name)) {
    issues.push({
      path: 'name',
      message: `"${data.name}" is a built-in agent's name: give your agent another name`,
    });
  }
  try {
    loadDefinitionText(text, `${data.name || 'agent'}.toml`, context);
  } catch (error) {
    // lines of the text written from the fields mean nothing to the editor: its fields do
    issues.push(...issuesOf(error).map(({ path, message }) => ({ path, message })));
  }
  return { text, issues };
}
