/**
 * An agent definition (docs/agents.md): what a user's agent is made of, as a run records
 * it on `run.started` and the compare view and `runs diff` read it. The main process
 * loads it from a TOML file (runtime/agents/definitions); this is its plain-data form.
 */

/** Run settings a definition may set; the keys and meanings of `[agent.NAME]`. */
export interface AgentDefinitionRunSettings {
  max_steps?: number;
  duplicate_threshold?: number;
  max_messages?: number;
  max_observe?: number;
  tool_choice?: 'auto' | 'required' | 'none';
  text_reply_policy?: 'reprompt_once' | 'finish' | 'continue';
  breakpoints?: string[];
  approve_tools?: string[];
}

export interface AgentDefinitionData {
  name: string;
  description: string;
  /** a template: `{{work_dir}}`, `{{date}}`, ... (TEMPLATE_VARIABLES) */
  system_prompt: string;
  /** a template, added as the last user message of each request; '' for none */
  next_step_prompt: string;
  /** tool patterns: built-in names, `server` (all its tools), `server/tool`, with `*` */
  tools: string[];
  /** names of the tools that end the run when called */
  terminate_tools: string[];
  /** the `[llm.NAME]` profile; absent: the default (`[agent] llm`, else `[llm]`) */
  profile?: string;
  run: AgentDefinitionRunSettings;
}

/** Where a definition comes from. */
export type AgentDefinitionSource = 'builtin' | 'home' | 'file';

/** A definition as a run records it: the data, its version and where it was read. */
export interface RecordedAgentDefinition {
  definition: AgentDefinitionData;
  /** first 16 hex digits of the sha256 of the file's text */
  hash: string;
  /** the counter of saved versions (1 for the first); absent for an unsaved text */
  version?: number;
  source: AgentDefinitionSource;
  /** the file it was read from (absent for a built-in) */
  path?: string;
}

/** The variables a prompt template may use, with what each becomes. */
export const TEMPLATE_VARIABLES = {
  work_dir: 'the sandbox folder the workspace is mounted at ([sandbox] work_dir)',
  date: "today's date, YYYY-MM-DD (UTC)",
  agent_name: "the agent's name",
  tools: 'the names of the tools that do not end the run, one "- NAME" line each ("- (none)")',
  mcp_servers: 'the MCP servers whose tools the agent has, comma separated',
} as const;
export type TemplateVariable = keyof typeof TEMPLATE_VARIABLES;

/** The built-in tools a definition may name (the MCP servers' tools come by pattern). */
export const BUILTIN_TOOL_NAMES = [
  'python_execute',
  'bash',
  'str_replace_editor',
  'browser',
  'ask_human',
  'create_chat_completion',
  'terminate',
] as const;
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

/** `name@3`: the name and the version asked for (none: the newest). */
export function parseAgentRef(ref: string): { name: string; version?: number } {
  const at = /^(.+)@(\d+)$/.exec(ref);
  return at ? { name: at[1]!, version: Number(at[2]) } : { name: ref };
}
