/**
 * The tools of configured MCP servers for one agent instance: connections come from the
 * session's pool, the Tool objects are new for every agent (never shared), and names are
 * namespaced and checked for collisions. The mcp agent uses one server; Manus may use all.
 */
import type { McpServerSettings } from '../../config/schema';
import type { Session } from '../../session/session';
import type { Tool } from '../tool';
import { checkNameCollisions, mcpToolName, type NamedRemoteTool } from './mcp-names';
import { mcpPool } from './mcp-pool';
import { createMcpTool } from './mcp-tool';

export interface McpServerTools {
  server: string;
  tools: Tool[];
}

export interface McpServerFailure {
  server: string;
  error: string;
}

export interface McpToolset {
  servers: McpServerTools[];
  /** servers that could not be reached; their tools are missing */
  failures: McpServerFailure[];
  tools: Tool[];
}

export interface LoadMcpToolsOptions {
  session: Session;
  servers: Record<string, McpServerSettings>;
  /** names the agent already uses (its other tools) */
  reservedNames?: Iterable<string>;
  signal?: AbortSignal;
}

export async function loadMcpTools(options: LoadMcpToolsOptions): Promise<McpToolset> {
  const pool = await mcpPool(options.session);
  const entries = Object.entries(options.servers);
  const listed = await Promise.all(
    entries.map(async ([server, settings]) => {
      const connection = pool.connection(server, settings);
      try {
        return { server, connection, remote: await connection.listTools(options.signal) };
      } catch (error) {
        return { server, error: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
  const failures: McpServerFailure[] = [];
  const named: (NamedRemoteTool & { build: () => Tool })[] = [];
  for (const entry of listed) {
    if ('error' in entry) {
      failures.push({ server: entry.server, error: entry.error ?? 'unknown error' });
      continue;
    }
    for (const remote of entry.remote) {
      const name = mcpToolName(entry.server, remote.name);
      named.push({
        server: entry.server,
        tool: remote.name,
        name,
        build: () => createMcpTool(entry.connection, remote, name),
      });
    }
  }
  checkNameCollisions(named, options.reservedNames);
  const servers = entries
    .filter(([server]) => !failures.some((f) => f.server === server))
    .map(([server]) => ({
      server,
      tools: named.filter((n) => n.server === server).map((n) => n.build()),
    }));
  return { servers, failures, tools: servers.flatMap((s) => s.tools) };
}
