/**
 * The SDK transport for a server's settings: a child process over stdio (its stderr
 * handed to `onStderr`), SSE, or streamable HTTP. The configured headers go on every
 * request (SSE's GET and its POSTs; every streamable HTTP request), and a streamable
 * HTTP server may be given an OAuth provider (mcp-oauth.ts).
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { headerSecretName } from '@shared/mcp-headers';
import type { McpServerSettings } from '../../config/schema';
import { SECRET_REF_PREFIX } from '../../config/secrets';
import { McpToolError } from './mcp-errors';

export function createTransport(
  s: McpServerSettings,
  options: {
    cwd?: string;
    onStderr: (text: string) => void;
    /** the headers' values, resolved (resolveHeaders) */
    headers?: Record<string, string>;
    authProvider?: OAuthClientProvider;
  },
): Transport {
  if (s.type === 'stdio') {
    const transport = new StdioClientTransport({
      command: s.command ?? '',
      args: s.args,
      env: s.env,
      stderr: 'pipe',
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    transport.stderr?.on('data', (chunk: Buffer) => options.onStderr(chunk.toString('utf8')));
    return transport;
  }
  const url = new URL(s.url ?? '');
  const requestInit: RequestInit = options.headers ? { headers: options.headers } : {};
  return s.type === 'sse'
    ? new SSEClientTransport(url, { requestInit })
    : new StreamableHTTPClientTransport(url, {
        requestInit,
        ...(options.authProvider ? { authProvider: options.authProvider } : {}),
      });
}

/**
 * The values of SERVER's headers: `secret:NAME` from the secret store, `env:VAR` from the
 * environment, anything else as written. A header whose value cannot be found is an
 * error naming the header and where its value was looked for (never the value).
 */
export function resolveHeaders(
  server: string,
  settings: McpServerSettings,
  resolve: (ref: string) => string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, ref] of Object.entries(settings.headers ?? {})) {
    const value = resolve(ref);
    if (!value) {
      const where = ref.startsWith('env:')
        ? `the environment variable ${ref.slice(4)} is not set`
        : ref.startsWith(SECRET_REF_PREFIX)
          ? `the secret "${ref.slice(SECRET_REF_PREFIX.length)}" is not stored (set the header's value in Settings → MCP${ref === `${SECRET_REF_PREFIX}${headerSecretName(server, name)}` ? '' : ', or fix the reference'})`
          : 'it is empty';
      throw new McpToolError(
        `[mcp.servers.${server}] headers.${name} has no value: ${where}.`,
        'connect',
      );
    }
    out[name] = value;
  }
  return out;
}
