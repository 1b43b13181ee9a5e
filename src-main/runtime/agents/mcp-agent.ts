/**
 * The catalog's `mcp` agent: the tools of one MCP server plus our own `terminate`.
 * Its finish signal is the unprefixed `terminate`, which the server's prefixed tools can
 * never shadow; the original compared the prefixed names against "terminate" and could
 * never finish (openmanus.md 7.2 item 7). No system message is added mid-run (7.2 item 15).
 */
import {
  specialToolNames,
  withExtraTools,
  type AgentBuildInput,
  type BuiltAgent,
} from './build-input';
import { mcpSystemPrompt } from './prompts/mcp';
import { builtinDefinition } from './definitions/builtin-definitions';
import type { McpServerSettings, WorkbenchConfig } from '../config/schema';
import { DEMO_MCP_SERVER_NAME, DEMO_MODEL_NAME } from '../demo/scripted-provider';
import { VisualToolAgent } from '../loop/visual-tool-agent';
import { createTerminateTool } from '../tools/terminate';
import { loadMcpTools } from '../tools/mcp/mcp-toolset';
import { mcpRunHost } from './mcp-host';
import { mcpAuthContext } from './mcp-auth';
import { promptTaskFor } from '../tools/mcp/mcp-toolset';

/** Images from MCP tools kept in the agent's memory. */
export const MCP_KEEP_IMAGES = 3;

/** The server the mcp agent works with, or an error saying how to choose one. */
export function chooseMcpServer(config: WorkbenchConfig): string {
  const names = Object.keys(config.mcp.servers);
  const chosen = config.mcp.agent_server;
  if (chosen !== undefined) {
    if (!config.mcp.servers[chosen]) {
      throw new Error(
        `[mcp] agent_server = "${chosen}" names no configured server (configured: ${names.join(', ') || 'none'}). Add [mcp.servers.${chosen}] or fix the name in config.toml.`,
      );
    }
    return chosen;
  }
  if (names.length === 1) return names[0]!;
  if (names.length === 0) {
    throw new Error(
      'The mcp agent needs an MCP server: add one to config.toml, e.g. [mcp.servers.files] with type = "stdio" and command = "...", or type = "http" and url = "...".',
    );
  }
  throw new Error(
    `Several MCP servers are configured (${names.join(', ')}): set [mcp] agent_server in config.toml to the one the mcp agent should use.`,
  );
}

function promptServer(config: WorkbenchConfig, server: string): string {
  if (config.mcp.servers[server]) return server;
  const names = Object.keys(config.mcp.servers);
  throw new Error(
    `The prompt's server "${server}" is not configured (configured: ${names.join(', ') || 'none'}). Add [mcp.servers.${server}] to config.toml or pick a prompt of a configured server.`,
  );
}

/**
 * The server this run uses: the prompt's server for a run from an MCP prompt; the built-in
 * demo server when the demo model drives the agent (its scripted replies know only that
 * server's tools); else the configured one.
 */
async function serverForRun(input: AgentBuildInput): Promise<[string, McpServerSettings]> {
  if (input.prompt) {
    const server = promptServer(input.config, input.prompt.server);
    return [server, input.config.mcp.servers[server]!];
  }
  if (input.llm.model === DEMO_MODEL_NAME) {
    return [DEMO_MCP_SERVER_NAME, await input.services.scripted.demoMcpServer()];
  }
  const server = chooseMcpServer(input.config);
  return [server, input.config.mcp.servers[server]!];
}

export async function buildMcpAgent(input: AgentBuildInput): Promise<BuiltAgent> {
  const [server, settings] = await serverForRun(input);
  const terminate = createTerminateTool();
  const toolset = await loadMcpTools({
    session: input.session,
    servers: { [server]: settings },
    reservedNames: [terminate.name],
    workDir: input.config.sandbox.work_dir,
    host: mcpRunHost(input),
    auth: mcpAuthContext(input.services),
  });
  const failure = toolset.failures[0];
  if (failure) {
    toolset.detach();
    throw new Error(failure.error);
  }
  let task: string | undefined;
  if (input.prompt) {
    try {
      task = await promptTaskFor(
        input.session,
        server,
        settings,
        input.prompt,
        input.task ?? '',
        mcpAuthContext(input.services),
      );
    } catch (error) {
      toolset.detach();
      throw error;
    }
  }
  for (const note of toolset.notes) console.warn(`[workbench] ${note}`);
  const prompt = (names: readonly string[]) =>
    mcpSystemPrompt(
      server,
      names.filter((n) => n !== terminate.name),
    );
  const agent = VisualToolAgent.create(
    {
      // every resolved run setting, so new ones reach the loop without touching this file
      ...input.settings,
      name: input.name,
      description: `Uses the tools of the MCP server "${server}".`,
      systemPrompt: prompt(toolset.tools.map((t) => t.name)),
      nextStepPrompt: builtinDefinition('mcp').next_step_prompt,
      // our terminate, never the server's (openmanus 7.2 item 7), plus a caller's own
      specialToolNames: specialToolNames(input, [terminate.name]),
      keepImages: MCP_KEEP_IMAGES,
    },
    { llm: input.llm, tools: withExtraTools(input, [...toolset.tools, terminate]) },
    input.env,
  );
  // The server may change its tools mid-run (tools/list_changed): the next request
  // declares the new set and its prompt lists it.
  const stop = toolset.follow(agent.tools, (names) => agent.updateSystemPrompt(prompt(names)));
  // The connection belongs to the session and outlives the run.
  return {
    agent,
    ...(task !== undefined ? { task } : {}),
    dispose: async () => {
      stop();
      toolset.detach();
      await agent.tools.dispose();
    },
  };
}
