/**
 * The part of the MCP toolset that needs the MCP SDK, loaded by mcp-toolset.ts only when
 * a server is configured: the session's connection pool and the tools of one server
 * (its tools, task-required ones only where the server runs tasks, and its resources).
 */
import type { Tool } from '../tool';
import { workspaceBlobSink } from './mcp-blobs';
import type { McpConnection } from './mcp-connection';
import { mcpToolName, mcpToolPrefix } from './mcp-names';
import { createResourceTools, resourceToolNames } from './mcp-resources';
import { createMcpTool } from './mcp-tool';
import type { LoadMcpToolsOptions } from './mcp-toolset';

export { mcpPool } from './mcp-pool';

/** The agent's tools of one server, as they are now. */
export async function serverTools(
  server: string,
  connection: McpConnection,
  options: LoadMcpToolsOptions,
): Promise<{ tools: Tool[]; notes: string[] }> {
  const remote = await connection.listTools(options.signal);
  const notes: string[] = [];
  const blobs = workspaceBlobSink(
    options.session.workspaceDir,
    options.workDir ?? '/workspace',
    server,
  );
  const resources = await connection.hasResources(options.signal);
  const readTool = resources ? resourceToolNames(server).read : undefined;
  const content = { blobs, ...(readTool ? { readTool } : {}) };
  const tasks = remote.some((t) => t.taskSupport === 'required')
    ? await connection.supportsTasks(options.signal)
    : false;
  const tools: Tool[] = [];
  for (const tool of remote) {
    if (options.pick && !options.pick(server, tool.name)) continue;
    if (tool.taskSupport === 'required' && !tasks) {
      notes.push(
        `tool "${tool.name}" of MCP server "${server}" requires task-based execution, which the server does not offer (no tasks capability): left out`,
      );
      continue;
    }
    tools.push(createMcpTool(connection, tool, mcpToolName(server, tool.name), content));
  }
  if (resources) {
    const taken = new Set(tools.map((t) => t.name));
    for (const tool of createResourceTools(connection, blobs)) {
      const own = tool.name.slice(mcpToolPrefix(server).length);
      if (options.pick && !options.pick(server, own)) continue;
      if (taken.has(tool.name)) {
        notes.push(
          `MCP server "${server}" has its own tool named like ${tool.name}: ours is left out`,
        );
      } else {
        tools.push(tool as Tool);
      }
    }
  }
  return { tools, notes };
}
