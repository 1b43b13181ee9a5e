/**
 * The SDK transport for a server's settings: a child process over stdio (its stderr
 * handed to `onStderr`), SSE, or streamable HTTP.
 */
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerSettings } from '../../config/schema';

export function createTransport(
  s: McpServerSettings,
  options: { cwd?: string; onStderr: (text: string) => void },
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
  return s.type === 'sse' ? new SSEClientTransport(url) : new StreamableHTTPClientTransport(url);
}
