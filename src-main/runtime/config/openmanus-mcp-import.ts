/**
 * OpenManus's `config/mcp.json` (`{"mcpServers": {ID: {type, url | command, args}}}`,
 * openmanus.md section 5), and the same shape as Claude Desktop, Cursor and VS Code
 * write it, into `[mcp.servers.ID]`. `type` may be missing (a `command` means stdio, a
 * `url` ending in /sse means SSE, any other URL streamable HTTP) or spelled as other
 * clients spell it (`streamable-http`, `streamableHttp`). A server that cannot be
 * expressed is left out with the reason.
 */
import { mcpServerSchema } from './schema';
import type { ImportReport } from './openmanus-llm-import';

export interface McpJsonConversion extends Omit<ImportReport, 'apiKeys'> {
  servers: Record<string, Record<string, unknown>>;
}

const TYPE_NAMES: Record<string, 'stdio' | 'sse' | 'http'> = {
  stdio: 'stdio',
  sse: 'sse',
  http: 'http',
  'streamable-http': 'http',
  streamablehttp: 'http',
  streamable_http: 'http',
};

/** The parsed JSON is an MCP servers file when it has an `mcpServers` object. */
export function isMcpServersFile(data: unknown): data is { mcpServers: Record<string, unknown> } {
  return (
    typeof data === 'object' &&
    data !== null &&
    typeof (data as { mcpServers?: unknown }).mcpServers === 'object' &&
    (data as { mcpServers?: unknown }).mcpServers !== null
  );
}

function typeOf(server: Record<string, unknown>): 'stdio' | 'sse' | 'http' | string {
  const raw = typeof server['type'] === 'string' ? server['type'] : server['transport'];
  if (typeof raw === 'string' && raw.trim() !== '') {
    return TYPE_NAMES[raw.trim().toLowerCase()] ?? raw;
  }
  if (typeof server['command'] === 'string') return 'stdio';
  if (typeof server['url'] === 'string') {
    return /\/sse\/?(\?.*)?$/i.test(server['url']) ? 'sse' : 'http';
  }
  return '';
}

export function convertMcpServersFile(data: {
  mcpServers: Record<string, unknown>;
}): McpJsonConversion {
  const out: McpJsonConversion = { servers: {}, imported: [], ignored: [] };
  for (const [name, value] of Object.entries(data.mcpServers)) {
    const where = `mcpServers.${name}`;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      out.ignored.push({ path: where, reason: 'not a server description (an object)' });
      continue;
    }
    const server = value as Record<string, unknown>;
    if (server['disabled'] === true) {
      out.ignored.push({ path: where, reason: 'disabled in the file' });
      continue;
    }
    const type = typeOf(server);
    if (type !== 'stdio' && type !== 'sse' && type !== 'http') {
      out.ignored.push({
        path: where,
        reason: type
          ? `type "${type}" is not supported (stdio, sse, http)`
          : 'neither a command (stdio) nor a url (sse, http)',
      });
      continue;
    }
    const candidate: Record<string, unknown> = { type };
    if (type === 'stdio') {
      candidate['command'] = server['command'];
      if (server['args'] !== undefined) candidate['args'] = server['args'];
      if (server['env'] !== undefined) candidate['env'] = server['env'];
    } else {
      candidate['url'] = server['url'];
    }
    if (typeof server['timeout'] === 'number') candidate['timeout'] = server['timeout'];
    const parsed = mcpServerSchema.safeParse(candidate);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      out.ignored.push({
        path: where,
        reason: `${issue?.path.join('.') || 'server'}: ${issue?.message ?? 'invalid'}`,
      });
      continue;
    }
    const leftOut = Object.keys(server).filter(
      (key) => !['type', 'transport', 'command', 'args', 'env', 'url', 'timeout'].includes(key),
    );
    for (const key of leftOut) {
      out.ignored.push({
        path: `${where}.${key}`,
        reason:
          key === 'headers'
            ? 'HTTP headers for MCP servers are not supported'
            : 'not a setting the workbench knows',
      });
    }
    out.servers[name] = candidate;
    out.imported.push(`${where} (as [mcp.servers.${name}], ${type})`);
  }
  return out;
}
