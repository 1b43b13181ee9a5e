/**
 * The built-in agents as definitions shipped with the app (read-only; `agents export`
 * and the Agents page's Duplicate give an editable copy). Their prompts are templates
 * made from the prompt modules, so rendering one for a run gives, byte for byte, the
 * prompt the agent always had (builtin-definitions.test.ts). Their `[run]` is empty:
 * `[agent.NAME]` in config.toml sets a built-in agent's run settings, as before.
 * The built-in builders (catalog.ts) keep what is particular to each agent: Manus's note
 * on unreachable MCP servers, the mcp agent's choice of one server (`[mcp] agent_server`).
 */
import { AGENT_NAMES, type AgentName } from '@shared/domain/agent';
import type { AgentDefinitionData, RecordedAgentDefinition } from '@shared/domain/agent-definition';
import { MANUS_NEXT_STEP_PROMPT, manusSystemPrompt } from '../prompts/manus';
import { sweSystemPrompt } from '../prompts/swe';
import { BROWSER_NEXT_STEP_PROMPT, BROWSER_SYSTEM_PROMPT } from '../prompts/browser';
import { MCP_NEXT_STEP_PROMPT, MCP_SYSTEM_PROMPT_TEMPLATE } from '../prompts/mcp';
import { TOOLCALL_SYSTEM_PROMPT } from '../prompts/toolcall';
import { definitionToToml } from './definition-toml';
import { definitionHash } from './load-definition';

const WORK_DIR = '{{work_dir}}';

const BUILTIN_DATA: Record<AgentName, AgentDefinitionData> = {
  manus: {
    name: 'manus',
    description: 'A general agent: Python, shell and files in a sandbox, the web, and MCP tools.',
    system_prompt: manusSystemPrompt(WORK_DIR),
    next_step_prompt: MANUS_NEXT_STEP_PROMPT,
    // every tool of every configured MCP server: "*/*"
    tools: [
      'python_execute',
      'bash',
      'str_replace_editor',
      'ask_human',
      'terminate',
      'browser',
      '*/*',
    ],
    terminate_tools: ['terminate'],
    run: {},
  },
  swe: {
    name: 'swe',
    description: 'A software engineering agent: bash and the file editor in the sandbox.',
    system_prompt: sweSystemPrompt(WORK_DIR),
    // swe has never had a next-step prompt (SWE_NEXT_STEP_PROMPT is not sent)
    next_step_prompt: '',
    tools: ['bash', 'str_replace_editor', 'terminate'],
    terminate_tools: ['terminate'],
    run: {},
  },
  browser: {
    name: 'browser',
    description: 'Browses the web with a headless Chromium.',
    system_prompt: BROWSER_SYSTEM_PROMPT,
    next_step_prompt: BROWSER_NEXT_STEP_PROMPT,
    tools: ['browser', 'terminate'],
    terminate_tools: ['terminate'],
    run: {},
  },
  mcp: {
    name: 'mcp',
    description:
      'Uses the tools of one MCP server ([mcp] agent_server, or the only one configured).',
    system_prompt: MCP_SYSTEM_PROMPT_TEMPLATE,
    next_step_prompt: MCP_NEXT_STEP_PROMPT,
    // the built-in agent takes the one chosen server; a copy takes every server's tools
    tools: ['*/*', 'terminate'],
    terminate_tools: ['terminate'],
    run: {},
  },
  toolcall: {
    name: 'toolcall',
    description: 'The bare ToolCallAgent: answers with create_chat_completion, then terminates.',
    system_prompt: TOOLCALL_SYSTEM_PROMPT,
    next_step_prompt: '',
    tools: ['create_chat_completion', 'terminate'],
    terminate_tools: ['terminate'],
    run: {},
  },
};

export function builtinDefinition(name: AgentName): AgentDefinitionData {
  return BUILTIN_DATA[name];
}

/** The shipped text of a built-in definition (what `agents export manus` writes). */
export function builtinDefinitionText(name: AgentName): string {
  return definitionToToml(BUILTIN_DATA[name]);
}

/** A built-in definition as a run records it: always version 1 of the shipped text. */
export function recordedBuiltin(name: AgentName): RecordedAgentDefinition {
  return {
    definition: BUILTIN_DATA[name],
    hash: definitionHash(builtinDefinitionText(name)),
    version: 1,
    source: 'builtin',
  };
}

export const BUILTIN_AGENT_NAMES: readonly AgentName[] = AGENT_NAMES;
