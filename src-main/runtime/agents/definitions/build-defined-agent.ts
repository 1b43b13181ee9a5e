/**
 * Builds a user's agent from its definition: the built-in tools it names (new for this
 * instance), the MCP tools its patterns pick from the configured servers, its rendered
 * prompts and its tools that end the run. Built as a VisualToolAgent (only the last
 * `[browser] keep_screenshots` images stay in memory), as Manus is; a copy of a
 * built-in agent with nothing changed sends the requests the built-in one sends.
 */
import { VisualToolAgent } from '../../loop/visual-tool-agent';
import { createAskHumanTool } from '../../tools/ask-human';
import { createBrowserTool } from '../../tools/browser/browser-tool';
import { createChatCompletionTool } from '../../tools/create-chat-completion';
import { loadMcpTools, type McpToolset } from '../../tools/mcp/mcp-toolset';
import { sandboxToolset, type SandboxToolset } from '../../tools/sandbox/sandbox-toolset';
import { createTerminateTool } from '../../tools/terminate';
import type { Tool } from '../../tools/tool';
import {
  specialToolNames,
  withExtraTools,
  type AgentBuildInput,
  type BuiltAgent,
} from '../build-input';
import { mcpAuthContext } from '../mcp-auth';
import { mcpRunHost } from '../mcp-host';
import type { LoadedDefinition } from './load-definition';
import { dateValue, renderTemplate, toolListValue, type TemplateValues } from './template';
import { builtinToolsOf, mcpServersOf, picksMcpTool } from './tool-patterns';
import { definitionNeeds, isSandboxTool } from './definition-needs';

async function loadPickedMcpTools(
  input: AgentBuildInput,
  loaded: LoadedDefinition,
  reserved: readonly string[],
): Promise<McpToolset | undefined> {
  const configured = Object.keys(input.config.mcp.servers);
  const servers = mcpServersOf(loaded.patterns, configured);
  if (servers.length === 0) return undefined;
  return loadMcpTools({
    session: input.session,
    servers: Object.fromEntries(servers.map((s) => [s, input.config.mcp.servers[s]!])),
    reservedNames: reserved,
    workDir: input.config.sandbox.work_dir,
    host: mcpRunHost(input),
    auth: mcpAuthContext(input.services),
    pick: (server, tool) => picksMcpTool(loaded.patterns, server, tool),
  });
}

export async function buildDefinedAgent(
  input: AgentBuildInput,
  loaded: LoadedDefinition,
): Promise<BuiltAgent> {
  const def = loaded.data;
  const builtins = builtinToolsOf(loaded.patterns);
  const sandboxNames = builtins.filter(isSandboxTool);
  // nothing but sandbox tools: a sandbox that cannot start ends the run, as swe's
  const { sandbox: need } = definitionNeeds(loaded, []);
  const sandbox: SandboxToolset =
    need !== 'none'
      ? sandboxToolset(input, sandboxNames, { need })
      : { tools: [], dispose: async () => undefined };
  const own: Tool[] = [];
  for (const name of builtins) {
    if (isSandboxTool(name)) own.push(sandbox.tools.find((t) => t.name === name)!);
    else if (name === 'browser')
      own.push(
        createBrowserTool({
          session: input.session,
          settings: input.config.browser,
          llm: input.llm,
        }) as Tool,
      );
    else if (name === 'ask_human') own.push(createAskHumanTool(input.services.human) as Tool);
    else if (name === 'create_chat_completion') own.push(createChatCompletionTool() as Tool);
    else own.push(createTerminateTool() as Tool);
  }
  let mcp: McpToolset | undefined;
  try {
    mcp = await loadPickedMcpTools(
      input,
      loaded,
      own.map((t) => t.name),
    );
  } catch (error) {
    await sandbox.dispose();
    throw error;
  }
  for (const note of mcp?.notes ?? []) console.warn(`[workbench] ${note}`);
  const ending = new Set(def.terminate_tools);
  const values = (names: readonly string[]): TemplateValues => ({
    work_dir: input.config.sandbox.work_dir,
    date: dateValue(),
    agent_name: def.name,
    tools: toolListValue(names.filter((n) => !ending.has(n))),
    mcp_servers: (mcp?.servers ?? []).map((s) => s.server).join(', '),
  });
  const failures = mcp?.failures ?? [];
  const systemPrompt = (names: readonly string[]) => {
    let prompt = renderTemplate(def.system_prompt, values(names));
    if (failures.length > 0) {
      // as Manus: an unreachable server is told to the model; the run goes on without it
      const lines = failures.map((f) => `- ${f.server}: ${f.error}`).join('\n');
      prompt += `\n\nThese MCP servers could not be reached, so their tools are not available:\n${lines}`;
    }
    return prompt;
  };
  for (const f of failures)
    console.warn(`[workbench] MCP server ${f.server} unavailable: ${f.error}`);
  const tools = withExtraTools(input, [...own, ...(mcp?.tools ?? [])]);
  const agent = VisualToolAgent.create(
    {
      ...input.settings,
      name: input.name,
      description: def.description,
      systemPrompt: systemPrompt(tools.map((t) => t.name)),
      nextStepPrompt: renderTemplate(def.next_step_prompt, values(tools.map((t) => t.name))),
      keepImages: input.config.browser.keep_screenshots,
      specialToolNames: specialToolNames(input, def.terminate_tools),
    },
    { llm: input.llm, tools },
    input.env,
  );
  // a server that changes its tools mid-run: the next request declares the new set
  const stop = mcp?.follow(agent.tools, (names) => agent.updateSystemPrompt(systemPrompt(names)));
  return {
    agent,
    dispose: async () => {
      stop?.();
      mcp?.detach();
      try {
        await agent.tools.dispose();
      } finally {
        await sandbox.dispose();
      }
    },
  };
}
