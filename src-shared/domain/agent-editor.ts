/**
 * What the Agents page and its editor exchange with the host (issue 28 item 2,
 * docs/agents.md "The Agents page"): the list of agents, one agent with its versions,
 * the result of checking or saving a definition (its problems as data, field by field),
 * and the tools an agent may pick (the built-in ones and the MCP servers' live lists).
 */
import type { AgentName, RunOutcome } from './agent';
import type { AgentDefinitionData, AgentDefinitionSource } from './agent-definition';

/** The newest run of an agent, for the list. */
export interface AgentLastRun {
  runId: string;
  startedAt: number;
  outcome?: RunOutcome;
  /** the version of the definition it ran (a user's agent) */
  version?: number;
}

/** One row of the Agents page. */
export interface AgentListItem {
  name: string;
  source: Exclude<AgentDefinitionSource, 'file'>;
  description: string;
  /** the newest saved version (absent: a file that does not load) */
  version?: number;
  hash?: string;
  path?: string;
  /** the built-in agent whose needs it shares (what New Run's pre-flight checks) */
  carrier?: AgentName;
  /** why it cannot run (a broken file): its file, line and fix */
  error?: string;
  lastRun?: AgentLastRun;
}

/** A problem of a definition, at a key of it (`system_prompt`, `tools`, `run.max_steps`). */
export interface AgentFieldIssue {
  /** the key, or `(file)` for the whole text (TOML syntax) */
  path: string;
  message: string;
  /** its line in the file */
  line?: number;
}

/** One agent as the editor opens it. */
export interface AgentDetail {
  name: string;
  source: Exclude<AgentDefinitionSource, 'file'>;
  /** built-in agents are read-only: Duplicate makes an editable copy */
  isReadOnly: boolean;
  /** the file's text as saved */
  text: string;
  /**
   * what the file says, as far as it can be read (a file with problems opens with what
   * could be read, and `issues` says what is wrong); absent when the TOML does not parse
   */
  definition?: AgentDefinitionData;
  issues: AgentFieldIssue[];
  version?: number;
  hash?: string;
  path?: string;
  /** the saved versions, oldest first */
  versions: { version: number; hash: string }[];
  lastRun?: AgentLastRun;
}

/** The prompts' token counts (o200k_base, as the runtime's context guard counts). */
export interface PromptTokens {
  system_prompt: number;
  next_step_prompt: number;
}

/** A definition checked (and saved, unless it has problems or was only checked). */
export interface AgentCheckResult {
  /** the problems; none: it loads and runs */
  issues: AgentFieldIssue[];
  tokens: PromptTokens;
  /** after a save without problems: the agent as saved (its new version) */
  saved?: AgentDetail;
}

/** A tool an agent may pick: its name for `tools`, what the model is told, its parameters. */
export interface AgentToolInfo {
  /** the pattern that picks it: `bash`, or `server/tool` for an MCP tool */
  pattern: string;
  name: string;
  description: string;
  /** the JSON schema of its arguments, as the model receives it */
  parameters: Record<string, unknown>;
}

export interface AgentToolCatalog {
  builtin: AgentToolInfo[];
  /** each configured MCP server's tools, listed from the server now, or why not */
  servers: { server: string; tools: AgentToolInfo[]; error?: string }[];
}

export interface AgentCreateInput {
  name: string;
  /** copy this agent (`manus`, `mine`, `mine@2`): Duplicate; absent: a small starter */
  from?: string;
}

export interface AgentImportInput {
  /** the file's text */
  content: string;
  fileName?: string;
  /** the agent's name (default: the file's `name`) */
  name?: string;
}

export interface AgentExport {
  fileName: string;
  content: string;
}
