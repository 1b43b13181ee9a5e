/**
 * The tools of configured MCP servers for one agent instance: connections come from the
 * session's pool, the Tool objects are new for every agent (never shared), and names are
 * namespaced and checked for collisions. The mcp agent uses one server; Manus may use all.
 *
 * Per server: its tools (those requiring task-based execution only when the server runs
 * tasks), and its resources as `list_resources`/`read_resource` tools when it has any.
 * `follow` keeps an agent's registry in step with `notifications/tools/list_changed`.
 */
import type { McpPromptChoice, McpServerPrompts } from '@shared/domain/mcp';
import type { McpServerSettings } from '../../config/schema';
import type { Session } from '../../session/session';
import type { Tool } from '../tool';
import type { ToolRegistry } from '../tool-registry';
import type { McpConnection } from './mcp-connection';
import { checkNameCollisions } from './mcp-names';
import type { McpRunHost } from './mcp-run-host';
import type { McpAuthContext } from './mcp-oauth';
import type { serverTools as serverToolsOfModule } from './mcp-server-tools';

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
  /** tools a server has that the agent cannot use, and why */
  notes: string[];
  /**
   * Follows the servers' tool list changes into `registry` (tools added and removed
   * between steps); `onChange` gets the registry's names after each change. Returns stop.
   */
  follow(registry: ToolRegistry, onChange?: (names: string[]) => void): () => void;
  /** the run no longer answers the servers' requests (call when it ends) */
  detach(): void;
}

export interface LoadMcpToolsOptions {
  session: Session;
  servers: Record<string, McpServerSettings>;
  /** names the agent already uses (its other tools) */
  reservedNames?: Iterable<string>;
  signal?: AbortSignal;
  /** where the sandbox sees the workspace, to say where saved blobs are */
  workDir?: string;
  /** the run: answers the servers' sampling and elicitation, receives their logs */
  host?: McpRunHost;
  /** header secrets, OAuth tokens and the sign-in page (mcp-oauth.ts) */
  auth?: McpAuthContext;
  /**
   * which of a server's tools the agent takes, by the server's own tool name (an agent
   * definition's `server/tool` patterns); absent: all of them
   */
  pick?: (server: string, tool: string) => boolean;
}

type ServerToolsLoader = typeof serverToolsOfModule;

interface ServerEntry {
  server: string;
  connection: McpConnection;
  tools: Tool[];
  notes: string[];
}

function check(entries: ServerEntry[], reserved: Iterable<string> | undefined): void {
  checkNameCollisions(
    entries.flatMap((e) => e.tools.map((t) => ({ server: e.server, tool: t.name, name: t.name }))),
    reserved,
  );
}

export async function loadMcpTools(options: LoadMcpToolsOptions): Promise<McpToolset> {
  if (Object.keys(options.servers).length === 0) {
    return {
      servers: [],
      failures: [],
      tools: [],
      notes: [],
      follow: () => () => undefined,
      detach: () => undefined,
    };
  }
  // The MCP SDK loads only when a server is configured (issue 16 item 7).
  const { mcpPool, serverTools } = await import('./mcp-server-tools');
  const pool = await mcpPool(options.session);
  const detaches: (() => void)[] = [];
  const listed = await Promise.all(
    Object.entries(options.servers).map(async ([server, settings]) => {
      const connection = pool.connection(server, settings, options.auth);
      // before the first connect: what the server asks right after it is answered too
      if (options.host) detaches.push(connection.attach(options.host));
      try {
        return { server, connection, ...(await serverTools(server, connection, options)) };
      } catch (error) {
        return { server, error: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
  const failures: McpServerFailure[] = [];
  const entries: ServerEntry[] = [];
  for (const entry of listed) {
    if ('error' in entry)
      failures.push({ server: entry.server, error: entry.error ?? 'unknown error' });
    else entries.push(entry);
  }
  check(entries, options.reservedNames);
  return {
    servers: entries.map((e) => ({ server: e.server, tools: e.tools })),
    failures,
    tools: entries.flatMap((e) => e.tools),
    notes: entries.flatMap((e) => e.notes),
    follow: (registry, onChange) => follow(entries, registry, options, serverTools, onChange),
    detach: () => detaches.forEach((detach) => detach()),
  };
}

function follow(
  entries: ServerEntry[],
  registry: ToolRegistry,
  options: LoadMcpToolsOptions,
  serverTools: ServerToolsLoader,
  onChange?: (names: string[]) => void,
): () => void {
  const stops = entries.map((entry) =>
    entry.connection.onToolsChanged(
      () =>
        serverTools(entry.server, entry.connection, { ...options, signal: undefined })
          .then(({ tools }) => {
            const mine = new Set(entry.tools.map((t) => t.name));
            const others = registry.names.filter((name) => !mine.has(name));
            const collisions = new Set(others);
            const usable = tools.filter((t) => !collisions.has(t.name));
            for (const name of mine) registry.remove(name);
            for (const tool of usable) registry.add(tool);
            entry.tools = usable;
            onChange?.(registry.names);
          })
          .catch(() => undefined), // the next call to one of its tools reports the problem
    ),
  );
  return () => stops.forEach((stop) => stop());
}

/**
 * The task of a run started from an MCP prompt: the prompt's messages, then the task the
 * user typed (if any). The prompt must exist and get its required arguments.
 */
export async function promptTaskFor(
  session: Session,
  server: string,
  settings: McpServerSettings,
  choice: McpPromptChoice,
  typed: string,
  auth?: McpAuthContext,
): Promise<string> {
  const { mcpPool } = await import('./mcp-server-tools');
  const { argumentProblems, getPrompt, listPrompts, promptTask } = await import('./mcp-prompts');
  const connection = (await mcpPool(session)).connection(server, settings, auth);
  const prompts = await listPrompts(connection);
  const prompt = prompts.find((p) => p.name === choice.name);
  if (!prompt) {
    throw new Error(
      `MCP server "${server}" has no prompt "${choice.name}" (its prompts: ${prompts.map((p) => p.name).join(', ') || 'none'}).`,
    );
  }
  const problem = argumentProblems(prompt, choice.arguments);
  if (problem) {
    throw new Error(
      `Prompt ${server}/${choice.name}: ${problem}. Give arguments as --arg NAME=VALUE (or in the New run form).`,
    );
  }
  const text = promptTask(await getPrompt(connection, choice.name, choice.arguments));
  if (!text) throw new Error(`Prompt ${server}/${choice.name} gave no text to use as the task.`);
  return typed.trim() ? `${text}\n\n${typed.trim()}` : text;
}

/** The prompts of every configured server (a server that fails says why, the others list). */
export async function listServerPrompts(
  session: Session,
  servers: Record<string, McpServerSettings>,
  signal?: AbortSignal,
  auth?: McpAuthContext,
): Promise<McpServerPrompts[]> {
  if (Object.keys(servers).length === 0) return [];
  const { mcpPool } = await import('./mcp-server-tools');
  const { listPrompts } = await import('./mcp-prompts');
  const pool = await mcpPool(session);
  return Promise.all(
    Object.entries(servers).map(async ([server, settings]) => {
      try {
        return {
          server,
          prompts: await listPrompts(pool.connection(server, settings, auth), signal),
        };
      } catch (error) {
        return {
          server,
          prompts: [],
          error: error instanceof Error ? error.message : String(error),
        };
      }
    }),
  );
}
