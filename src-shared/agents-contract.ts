/**
 * The Agents page's part of the contract (issue 28 item 2, docs/agents.md "The Agents
 * page"), merged into `RequestMap`, `REQUEST_CHANNELS` and `API_METHODS` by ipc.ts.
 * Kept here so the contract's main file stays one screen per concern.
 */
import type { AgentDefinitionData } from './domain/agent-definition';
import type {
  AgentCheckResult,
  AgentCreateInput,
  AgentDetail,
  AgentExport,
  AgentImportInput,
  AgentListItem,
  AgentToolCatalog,
} from './domain/agent-editor';

type NoInput = Record<string, never>;

/** request channel -> input and output */
export interface AgentsRequestMap {
  /** built-in and user agents, with their newest version and last run */
  'agents:list': { input: NoInput; output: AgentListItem[] };
  /** one agent: its text, what it says, its problems and its versions */
  'agents:get': { input: { name: string }; output: AgentDetail };
  /** the tools an agent may pick: built-in ones, and each MCP server's, listed now */
  'agents:tools': { input: NoInput; output: AgentToolCatalog };
  /** the definition's problems (as data) and its prompts' token counts; nothing is written */
  'agents:validate': { input: { definition: AgentDefinitionData }; output: AgentCheckResult };
  /** saved as a new version unless it has problems (then the problems, nothing written) */
  'agents:save': {
    input: { name: string; definition: AgentDefinitionData };
    output: AgentCheckResult;
  };
  /** a new agent: a starter, or a copy of `from` (Duplicate) */
  'agents:create': { input: AgentCreateInput; output: AgentDetail };
  /** renames a user's agent: its file, its `name`, its versions */
  'agents:rename': { input: { name: string; to: string }; output: AgentDetail };
  /** removes a user's agent's file (its versions stay, for the runs that used them) */
  'agents:delete': { input: { name: string }; output: { deleted: true } };
  /** a definition file's text as a new user agent, unless it has problems */
  'agents:import': { input: AgentImportInput; output: AgentCheckResult };
  /** the definition as TOML (built-in agents too; `NAME@V` for a version) */
  'agents:export': { input: { ref: string }; output: AgentExport };
}

export const AGENTS_CHANNELS = [
  'agents:list',
  'agents:get',
  'agents:tools',
  'agents:validate',
  'agents:save',
  'agents:create',
  'agents:rename',
  'agents:delete',
  'agents:import',
  'agents:export',
] as const satisfies readonly (keyof AgentsRequestMap)[];

export const AGENTS_API_METHODS = {
  listAgents: 'agents:list',
  getAgent: 'agents:get',
  listAgentTools: 'agents:tools',
  validateAgent: 'agents:validate',
  saveAgent: 'agents:save',
  createAgent: 'agents:create',
  renameAgent: 'agents:rename',
  deleteAgent: 'agents:delete',
  importAgent: 'agents:import',
  exportAgent: 'agents:export',
} as const satisfies Record<string, keyof AgentsRequestMap>;
