/**
 * Saves a system prompt edited in the playground into an agent (issue 28 item 4): a user
 * agent (`agents/NAME.toml`) takes it as its next version; a built-in agent, or a file
 * given by path, is duplicated into a new user agent with that prompt (the app never
 * writes a built-in, nor a path a run's history names: an imported history could name
 * any file). The text is checked as `agents new` checks it, then written as it writes it
 * (file, then `recordVersion`).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { isAgentName } from '@shared/domain/agent';
import type { AgentDefinitionData, RecordedAgentDefinition } from '@shared/domain/agent-definition';
import { writeFileAtomic } from '../../config/atomic-write';
import { readRegularFile } from '../../util/read-regular-file';
import { agentsDir, MAX_DEFINITION_BYTES, recordVersion, resolveDefinition } from './agent-store';
import { AGENT_NAME_PATTERN } from './definition-schema';
import { definitionText } from './definition-text-edit';
import {
  AgentDefinitionError,
  loadDefinitionText,
  type DefinitionContext,
} from './load-definition';

export interface SavedPrompt {
  name: string;
  version: number;
  isDuplicate: boolean;
  path: string;
}

/**
 * `recorded` is the definition the run ran with. A user agent's new version starts from
 * its file as it is now (edits made since the run are kept; a file deleted since is made
 * again from the recorded definition) with `systemPrompt` in place of its prompt.
 */
export function savePromptIntoAgent(
  home: string,
  context: DefinitionContext,
  recorded: RecordedAgentDefinition,
  systemPrompt: string,
  asName?: string,
): SavedPrompt {
  const name = recorded.definition.name;
  if (recorded.source === 'home' && asName === undefined) {
    const path = join(agentsDir(home), `${name}.toml`);
    const base = existsSync(path)
      ? resolveDefinition(name, home, context).data
      : recorded.definition;
    return write(home, context, path, { ...base, system_prompt: systemPrompt }, false);
  }
  if (asName === undefined) {
    throw new AgentDefinitionError(name, [
      {
        path: 'name',
        message:
          recorded.source === 'builtin'
            ? `${name} is a built-in agent and cannot be changed: give a name for your copy of it`
            : `${name} was read from ${recorded.path ?? 'a file'}: give a name for a copy in your agents folder`,
      },
    ]);
  }
  if (!AGENT_NAME_PATTERN.test(asName) || isAgentName(asName)) {
    throw new AgentDefinitionError(asName, [
      {
        path: 'name',
        message: isAgentName(asName)
          ? `"${asName}" is a built-in agent's name: choose another one`
          : 'an agent name is 1-64 letters, digits, _ . - (starting with a letter or digit)',
      },
    ]);
  }
  const path = join(agentsDir(home), `${asName}.toml`);
  if (existsSync(path)) {
    throw new AgentDefinitionError(path, [
      {
        path: 'name',
        message: `the agent ${asName} exists: choose another name (or open a run of ${asName} to save into it)`,
      },
    ]);
  }
  const data = { ...recorded.definition, name: asName, system_prompt: systemPrompt };
  return write(home, context, path, data, true);
}

function write(
  home: string,
  context: DefinitionContext,
  path: string,
  data: AgentDefinitionData,
  isDuplicate: boolean,
): SavedPrompt {
  // saving into the user's own file keeps their comments and layout
  const previous =
    isDuplicate || !existsSync(path)
      ? undefined
      : readRegularFile(path, MAX_DEFINITION_BYTES, 'The agent definition');
  const text = definitionText(data, previous);
  // the same checks as a run's: an unknown {{variable}} or an empty prompt is refused here
  loadDefinitionText(text, path, context);
  mkdirSync(agentsDir(home), { recursive: true });
  writeFileAtomic(path, text, 0o644);
  return { name: data.name, version: recordVersion(home, data.name, text), isDuplicate, path };
}
