/**
 * The MCP connections of one session, one per configured server. The pool is a session
 * resource, so closing the session closes them, and nothing is shared between sessions:
 * the original kept sessions in class-level dicts shared by every agent instance
 * (openmanus.md 7.2 item 8). A server whose settings changed in config.toml is
 * reconnected with the new settings.
 */
import type { McpServerSettings } from '../../config/schema';
import type { Session, SessionResource } from '../../session/session';
import { McpConnection } from './mcp-connection';
import type { McpAuthContext } from './mcp-oauth';

export const MCP_RESOURCE_KEY = 'mcp';

export class McpConnectionPool implements SessionResource {
  private readonly connections = new Map<string, McpConnection>();

  constructor(private readonly cwd?: string) {}

  /** AUTH: how header secrets are read and OAuth tokens kept (the host's; see mcp-oauth.ts) */
  connection(
    serverName: string,
    settings: McpServerSettings,
    auth?: McpAuthContext,
  ): McpConnection {
    const fingerprint = JSON.stringify(settings);
    const current = this.connections.get(serverName);
    if (current && current.fingerprint === fingerprint) return current;
    if (current) void current.close();
    const created = new McpConnection(serverName, settings, {
      ...(this.cwd ? { cwd: this.cwd } : {}),
      ...(auth ? { auth } : {}),
    });
    this.connections.set(serverName, created);
    return created;
  }

  async dispose(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.allSettled(all.map((c) => c.close()));
  }
}

export function mcpPool(session: Session): Promise<McpConnectionPool> {
  return session.use(MCP_RESOURCE_KEY, async () => new McpConnectionPool(session.workspaceDir));
}
