/**
 * The tools an agent definition may pick, for the Agents page's tool picker: each
 * built-in tool with the description and JSON schema the model receives (from the tools
 * themselves, never a copy), and each configured MCP server's tools listed from the
 * server now (a server that cannot be reached says why; the others still list).
 */
import { BUILTIN_TOOL_NAMES } from '@shared/domain/agent-definition';
import type { AgentToolCatalog, AgentToolInfo } from '@shared/domain/agent-editor';
import type { McpServerSettings, WorkbenchConfig } from '../../config/schema';
import type { Session } from '../../session/session';
import { createAskHumanTool } from '../../tools/ask-human';
import { BROWSER_TOOL_DESCRIPTION, browserToolSchema } from '../../tools/browser/browser-tool';
import { createChatCompletionTool } from '../../tools/create-chat-completion';
import type { McpAuthContext } from '../../tools/mcp/mcp-oauth';
import { sandboxToolset } from '../../tools/sandbox/sandbox-toolset';
import { createTerminateTool } from '../../tools/terminate';
import { toolParameters, type Tool } from '../../tools/tool';
import type { RuntimeServices } from '../runtime-services';

/** the longest one server may take to list its tools, connecting included */
const LIST_TIMEOUT_MS = 20_000;

function info(pattern: string, tool: Pick<Tool, 'name' | 'description' | 'schema'>) {
  return {
    pattern,
    name: tool.name,
    description: tool.description,
    parameters: toolParameters(tool.schema),
  };
}

/** The built-in tools, in BUILTIN_TOOL_NAMES order; made as a run makes them, never run. */
export async function builtinToolInfos(
  services: Pick<RuntimeServices, 'sandboxes' | 'human'>,
  session: Session,
  config: Pick<WorkbenchConfig, 'sandbox'>,
): Promise<AgentToolInfo[]> {
  const sandbox = sandboxToolset({ services, session, config, env: { emit: () => undefined } }, [
    'python_execute',
    'bash',
    'str_replace_editor',
  ]);
  try {
    const tools: Pick<Tool, 'name' | 'description' | 'schema'>[] = [
      ...sandbox.tools,
      { name: 'browser', description: BROWSER_TOOL_DESCRIPTION, schema: browserToolSchema },
      createAskHumanTool(services.human) as Tool,
      createChatCompletionTool() as Tool,
      createTerminateTool() as Tool,
    ];
    return BUILTIN_TOOL_NAMES.map((name) =>
      info(
        name,
        tools.find((t) => t.name === name)!,
      ),
    );
  } finally {
    await sandbox.dispose();
  }
}

async function withinTimeout<T>(
  work: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`${what} did not answer within ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([work(controller.signal), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One server's tools as the agent would get them (task-only tools the server cannot run
 * left out, its resources as `list_resources`/`read_resource`), each with the
 * `server/tool` pattern that picks it.
 */
async function serverToolInfos(
  session: Session,
  server: string,
  settings: McpServerSettings,
  auth: McpAuthContext,
  signal: AbortSignal,
): Promise<AgentToolInfo[]> {
  const { mcpPool, serverTools } = await import('../../tools/mcp/mcp-server-tools');
  const { mcpToolName, mcpToolPrefix } = await import('../../tools/mcp/mcp-names');
  const connection = (await mcpPool(session)).connection(server, settings, auth);
  const remote = await connection.listTools(signal);
  const { tools } = await serverTools(server, connection, { session, servers: {}, signal });
  return tools.map((tool) => {
    const own =
      remote.find((r) => mcpToolName(server, r.name) === tool.name)?.name ??
      tool.name.slice(mcpToolPrefix(server).length);
    return info(`${server}/${own}`, tool);
  });
}

export async function toolCatalog(
  services: Pick<RuntimeServices, 'sandboxes' | 'human'>,
  session: Session,
  config: Pick<WorkbenchConfig, 'sandbox' | 'mcp'>,
  auth: McpAuthContext,
): Promise<AgentToolCatalog> {
  const servers = Object.entries(config.mcp.servers);
  const [builtin, listed] = await Promise.all([
    builtinToolInfos(services, session, config),
    Promise.all(
      servers.map(async ([server, settings]) => {
        try {
          const tools = await withinTimeout(
            (signal) => serverToolInfos(session, server, settings, auth, signal),
            Math.min(LIST_TIMEOUT_MS, settings.timeout * 1000),
            `MCP server "${server}"`,
          );
          return { server, tools };
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          return {
            server,
            tools: [],
            error: `${message} (check [mcp.servers.${server}] in Settings → MCP servers)`,
          };
        }
      }),
    ),
  ]);
  return { builtin, servers: listed };
}
