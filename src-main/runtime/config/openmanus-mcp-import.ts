/**
 * OpenManus's `config/mcp.json` (`{"mcpServers": {ID: {type, url | command, args}}}`,
 * openmanus.md section 5), and the same shape as Claude Desktop, Cursor and VS Code
 * write it, into `[mcp.servers.ID]`. `type` may be missing (a `command` means stdio, a
 * `url` ending in /sse means SSE, any other URL streamable HTTP) or spelled as other
 * clients spell it (`streamable-http`, `streamableHttp`). A server that cannot be
 * expressed is left out with the reason. `headers` values are credentials: each goes to
 * the secret store (`secret:mcp.ID.HEADER` in config.toml); `${env:VAR}` (Cursor, VS
 * Code) becomes `env:VAR`; a header that cannot be kept (VS Code's `${input:…}`, a name
 * the transport owns) is left out with the reason.
 */
import { headerNameProblem, headerSecretName } from '@shared/mcp-headers';
import { mcpServerSchema } from './schema';
import { SECRET_REF_PREFIX } from './secrets';
import type { ImportReport } from './openmanus-llm-import';

export interface McpJsonConversion extends Omit<ImportReport, 'apiKeys'> {
  servers: Record<string, Record<string, unknown>>;
  /** header values to store in the secret store (never config.toml) */
  secrets: { name: string; value: string }[];
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
  const out: McpJsonConversion = { servers: {}, secrets: [], imported: [], ignored: [] };
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
    const secrets: McpJsonConversion['secrets'] = [];
    if (type !== 'stdio' && server['headers'] !== undefined) {
      const headers = importHeaders(name, server['headers'], where, out.ignored, secrets);
      if (Object.keys(headers).length > 0) candidate['headers'] = headers;
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
    const known = ['type', 'transport', 'command', 'args', 'env', 'url', 'timeout', 'headers'];
    for (const key of Object.keys(server).filter((k) => !known.includes(k))) {
      out.ignored.push({ path: `${where}.${key}`, reason: 'not a setting the workbench knows' });
    }
    if (type === 'stdio' && server['headers'] !== undefined) {
      out.ignored.push({
        path: `${where}.headers`,
        reason: 'a stdio server has no HTTP headers (give it env instead)',
      });
    }
    out.secrets.push(...secrets);
    out.servers[name] = candidate;
    out.imported.push(`${where} (as [mcp.servers.${name}], ${type})`);
  }
  return out;
}

/**
 * A server's `headers` as references: `${env:VAR}` as `env:VAR`, any other value moved to
 * the secret store. Headers that cannot be kept are reported in IGNORED.
 */
function importHeaders(
  server: string,
  value: unknown,
  where: string,
  ignored: McpJsonConversion['ignored'],
  secrets: McpJsonConversion['secrets'],
): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    ignored.push({ path: `${where}.headers`, reason: 'not an object of NAME: value' });
    return {};
  }
  const out: Record<string, string> = {};
  for (const [header, raw] of Object.entries(value as Record<string, unknown>)) {
    const path = `${where}.headers.${header}`;
    const problem = headerNameProblem(header);
    if (problem) {
      ignored.push({ path, reason: problem });
      continue;
    }
    if (typeof raw !== 'string' || raw === '') {
      ignored.push({ path, reason: 'the value is not a non-empty string' });
      continue;
    }
    const env = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(raw.trim());
    if (env) {
      out[header] = `env:${env[1]}`;
      continue;
    }
    if (/\$\{[^}]*\}/.test(raw)) {
      ignored.push({
        path,
        reason: 'its value asks the editor for input (${...}); set the header in Settings → MCP',
      });
      continue;
    }
    const secret = headerSecretName(server, header);
    secrets.push({ name: secret, value: raw });
    out[header] = `${SECRET_REF_PREFIX}${secret}`;
  }
  return out;
}
