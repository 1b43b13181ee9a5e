/**
 * For the Manus entry of the catalog: the browser tool and the tools of every configured
 * MCP server, new for each agent instance. Servers that cannot be reached are reported
 * in `failures` (their tools are left out) so the caller decides whether that is fatal.
 * The loop puts the images these tools return on user messages; to keep only the last
 * `keepImages` of them in memory, build the agent as a VisualToolAgent
 * (loop/visual-tool-agent.ts), as the browser and mcp agents are.
 */
import type { AgentBuildInput } from './catalog';
import { createBrowserTool } from '../tools/browser/browser-tool';
import type { Tool } from '../tools/tool';
import { mcpRunHost } from './mcp-host';
import { mcpAuthContext } from './mcp-auth';
import { loadMcpTools, type McpServerFailure, type McpToolset } from '../tools/mcp/mcp-toolset';

export interface ManusExtras {
  tools: Tool[];
  failures: McpServerFailure[];
  /** follows the MCP servers' tool list changes into the agent's registry */
  follow: McpToolset['follow'];
  /** the run stops answering the MCP servers' requests */
  detach: McpToolset['detach'];
  /** screenshots to keep in memory (`[browser] keep_screenshots`) */
  keepImages: number;
}

export async function browserAndMcpTools(
  input: Pick<AgentBuildInput, 'session' | 'config' | 'llm'> & Partial<AgentBuildInput>,
  reservedNames: Iterable<string>,
): Promise<ManusExtras> {
  const browser = createBrowserTool({
    session: input.session,
    settings: input.config.browser,
    llm: input.llm,
  });
  const mcp = await loadMcpTools({
    session: input.session,
    servers: input.config.mcp.servers,
    reservedNames: [...reservedNames, browser.name],
    workDir: input.config.sandbox.work_dir,
    ...(input.services ? { auth: mcpAuthContext(input.services) } : {}),
    ...(input.env && input.services && input.name
      ? { host: mcpRunHost(input as AgentBuildInput) }
      : {}),
  });
  for (const note of mcp.notes) console.warn(`[workbench] ${note}`);
  return {
    tools: [browser as Tool, ...mcp.tools],
    failures: mcp.failures,
    follow: mcp.follow,
    detach: mcp.detach,
    keepImages: input.config.browser.keep_screenshots,
  };
}
