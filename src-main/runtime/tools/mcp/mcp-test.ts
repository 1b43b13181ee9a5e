/**
 * "Test" of an MCP server in Settings: connect with the settings as typed (saved or
 * not), list the tools, close. The answer says what the agents would get, or why the
 * server could not be reached (the connection's own message: command not found, the
 * server's stderr, HTTP status).
 */
import type { McpServerInput, McpTestResult } from '@shared/ipc';
import { mcpServerSchema } from '../../config/schema';
import { McpConnection } from './mcp-connection';
import type { McpAuthContext } from './mcp-oauth';

export async function testMcpServer(
  name: string,
  /** headers as references or values (config-service previewMcpHeaders) */
  input: Omit<McpServerInput, 'headers'> & { headers?: Record<string, string> },
  options: { cwd?: string; signal?: AbortSignal; auth?: McpAuthContext } = {},
): Promise<McpTestResult> {
  const started = Date.now();
  const parsed = mcpServerSchema.safeParse(input);
  if (!parsed.success) {
    const detail = parsed.error.issues
      .map((i) => `${i.path.map(String).join('.') || 'server'}: ${i.message}`)
      .join('; ');
    return { ok: false, tools: [], message: `[mcp.servers.${name}] ${detail}`, latencyMs: 0 };
  }
  const connection = new McpConnection(name, parsed.data, {
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.auth ? { auth: options.auth } : {}),
  });
  try {
    const tools = await connection.listTools(options.signal);
    const latencyMs = Date.now() - started;
    return {
      ok: true,
      tools: tools.map((t) => ({ name: t.name, description: t.description })),
      message: `${connection.describe()} answered with ${tools.length} tool${tools.length === 1 ? '' : 's'} in ${latencyMs} ms`,
      latencyMs,
    };
  } catch (error) {
    return {
      ok: false,
      tools: [],
      message: error instanceof Error ? error.message : String(error),
      latencyMs: Date.now() - started,
    };
  } finally {
    await connection.close().catch(() => undefined);
  }
}
