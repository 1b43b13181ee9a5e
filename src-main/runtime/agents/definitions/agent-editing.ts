/**
 * The Agents page's changes to the user's agents (docs/agents.md "The Agents page"):
 * open one, save (a new version unless it has problems), create (a starter, or a copy:
 * Duplicate), rename, delete, import a file's text, export. Built-in agents are
 * read-only. A problem of what the user wrote is data (AgentFieldIssue); a request that
 * cannot be done (no such agent, a name taken) is an AgentEditError with its code.
 */
import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isAgentName } from '@shared/domain/agent';
import type { AgentDefinitionData } from '@shared/domain/agent-definition';
import type {
  AgentCheckResult,
  AgentDetail,
  AgentExport,
  AgentFieldIssue,
} from '@shared/domain/agent-editor';
import { writeFileAtomic } from '../../config/atomic-write';
import { findKeyLine } from '../../config/toml-document';
import { readRegularFile } from '../../util/read-regular-file';
import {
  agentsDir,
  listVersions,
  MAX_DEFINITION_BYTES,
  recordVersion,
  resolveDefinition,
} from './agent-store';
import { builtinDefinitionText } from './builtin-definitions';
import { AGENT_NAME_PATTERN } from './definition-schema';
import { definitionToToml } from './definition-toml';
import { checkDraft, issuesOf, promptTokens, readDraft } from './definition-draft';
import { loadDefinitionText, type DefinitionContext } from './load-definition';
import { starterDefinitionText } from './starter-definition';

export class AgentEditError extends Error {
  constructor(
    readonly code: 'not_found' | 'conflict' | 'forbidden' | 'invalid_input',
    message: string,
  ) {
    super(message);
    this.name = 'AgentEditError';
  }
}

function fileOf(home: string, name: string): string {
  return join(agentsDir(home), `${name}.toml`);
}

/** A user's agent that exists; built-in agents are refused with the way to change one. */
function existingUserAgent(home: string, name: string): string {
  if (isAgentName(name)) {
    throw new AgentEditError(
      'forbidden',
      `${name} is a built-in agent and cannot be changed: Duplicate it to edit a copy`,
    );
  }
  const file = fileOf(home, name);
  if (!existsSync(file)) throw new AgentEditError('not_found', `There is no agent "${name}"`);
  return file;
}

/** A name a new agent may take. */
function freeName(home: string, name: string): string {
  if (!AGENT_NAME_PATTERN.test(name)) {
    throw new AgentEditError(
      'invalid_input',
      `"${name}" is not an agent name: 1-64 letters, digits, _ . - (starting with a letter or digit)`,
    );
  }
  if (isAgentName(name)) {
    throw new AgentEditError('conflict', `"${name}" is a built-in agent's name: choose another`);
  }
  const file = fileOf(home, name);
  if (existsSync(file)) {
    throw new AgentEditError('conflict', `An agent "${name}" exists already: choose another name`);
  }
  return file;
}

export function agentDetail(home: string, name: string, context: DefinitionContext): AgentDetail {
  if (isAgentName(name)) {
    const text = builtinDefinitionText(name);
    const loaded = loadDefinitionText(text, `(built-in) ${name}`, context);
    return {
      name,
      source: 'builtin',
      isReadOnly: true,
      text,
      definition: loaded.data,
      issues: [],
      version: 1,
      hash: loaded.hash,
      versions: [{ version: 1, hash: loaded.hash }],
    };
  }
  const path = existingUserAgent(home, name);
  const text = readRegularFile(path, MAX_DEFINITION_BYTES, 'The agent definition');
  let detail: Pick<AgentDetail, 'definition' | 'issues' | 'version' | 'hash'>;
  try {
    const resolved = resolveDefinition(name, home, context);
    detail = {
      definition: resolved.data,
      issues: [],
      hash: resolved.hash,
      ...(resolved.version !== undefined ? { version: resolved.version } : {}),
    };
  } catch (error) {
    const draft = readDraft(text);
    detail = { issues: issuesOf(error), ...(draft ? { definition: draft } : {}) };
  }
  return {
    name,
    source: 'home',
    isReadOnly: false,
    text,
    path,
    ...detail,
    versions: listVersions(home, name),
  };
}

/** Writes `text` as the agent's file and records it as a version. */
function write(home: string, file: string, name: string, text: string): void {
  mkdirSync(agentsDir(home), { recursive: true });
  writeFileAtomic(file, text, 0o644);
  recordVersion(home, name, text);
}

/** The definition's problems and token counts; nothing is written. */
export function checkAgent(
  data: AgentDefinitionData,
  context: DefinitionContext,
): AgentCheckResult {
  return { issues: checkDraft(data, context).issues, tokens: promptTokens(data) };
}

/** Saves a user's agent as a new version, unless it has problems (then nothing is written). */
export function saveAgent(
  home: string,
  name: string,
  data: AgentDefinitionData,
  context: DefinitionContext,
): AgentCheckResult {
  const file = existingUserAgent(home, name);
  const previous = readRegularFile(file, MAX_DEFINITION_BYTES, 'The agent definition');
  const { text, issues } = checkDraft(data, context, previous);
  if (data.name !== name && !issues.some((i) => i.path === 'name')) {
    issues.push({
      path: 'name',
      message: `the agent is "${name}": rename it with Rename, not by editing its name here`,
    });
  }
  const tokens = promptTokens(data);
  if (issues.length > 0) return { issues, tokens };
  write(home, file, name, text);
  return { issues, tokens, saved: agentDetail(home, name, context) };
}

/** A new user agent: the starter, or a copy of `from` (built-in or the user's) named `name`. */
export function createAgent(
  home: string,
  name: string,
  from: string | undefined,
  context: DefinitionContext,
): AgentDetail {
  const file = freeName(home, name);
  const text =
    from === undefined
      ? starterDefinitionText(name)
      : definitionToToml({ ...resolveDefinition(from, home, context).data, name });
  write(home, file, name, text);
  return agentDetail(home, name, context);
}

/** `text` with its top-level `name = ...` line saying `name` (the rest kept as written). */
function withName(text: string, name: string): string {
  const line = findKeyLine(text, ['name']);
  const lines = text.split('\n');
  if (line === undefined || !/^\s*name\s*=/.test(lines[line - 1] ?? ''))
    return `name = ${JSON.stringify(name)}\n${text}`;
  lines[line - 1] = `name = ${JSON.stringify(name)}`;
  return lines.join('\n');
}

/**
 * Renames a user's agent: its file, its `name` (comments and layout kept) and its saved
 * versions, which go on under the new name (the new text is its next version). Runs
 * keep the definitions they recorded.
 */
export function renameAgent(
  home: string,
  name: string,
  to: string,
  context: DefinitionContext,
): AgentDetail {
  const file = existingUserAgent(home, name);
  const target = freeName(home, to);
  const text = withName(readRegularFile(file, MAX_DEFINITION_BYTES, 'The agent definition'), to);
  const versions = join(agentsDir(home), '.versions');
  if (existsSync(join(versions, name)) && !existsSync(join(versions, to)))
    cpSync(join(versions, name), join(versions, to), { recursive: true });
  write(home, target, to, text);
  rmSync(file);
  return agentDetail(home, to, context);
}

/** Removes a user's agent's file; its versions stay (the runs that used them name them). */
export function deleteAgent(home: string, name: string): void {
  const file = existingUserAgent(home, name);
  // moved aside first: a crash between the two leaves the file, never half of one
  const aside = `${file}.deleting`;
  renameSync(file, aside);
  rmSync(aside);
}

/** A definition file's text as a new user agent (named `name`, else as the file says). */
export function importAgent(
  home: string,
  content: string,
  name: string | undefined,
  context: DefinitionContext,
): AgentCheckResult {
  const draft = readDraft(content);
  const agentName = name ?? draft?.name ?? '';
  const text = name !== undefined ? withName(content, name) : content;
  const tokens = promptTokens(draft ?? { system_prompt: '', next_step_prompt: '' });
  let issues: AgentFieldIssue[];
  try {
    loadDefinitionText(text, `${agentName || 'agent'}.toml`, context);
    issues = [];
  } catch (error) {
    issues = issuesOf(error);
  }
  if (issues.length > 0) return { issues, tokens };
  write(home, freeName(home, agentName), agentName, text);
  return { issues, tokens, saved: agentDetail(home, agentName, context) };
}

/** The definition's text as it is saved (`NAME@V`: that version's), built-in agents too. */
export function exportAgent(home: string, ref: string, context: DefinitionContext): AgentExport {
  const resolved = resolveDefinition(ref, home, context);
  const version = ref.includes('@') ? `-v${resolved.version}` : '';
  return { fileName: `${resolved.data.name}${version}.toml`, content: resolved.text };
}
