/**
 * The built-in demo's MCP server: what the mcp agent's demo (no API key set) connects to,
 * so the demo shows an MCP tool at work with no server to install or configure. A real
 * MCP server (the official SDK, streamable HTTP, stateless) on 127.0.0.1, started on
 * first use and closed with the runtime; the agent reaches it through the same client,
 * naming and result handling as any configured server (`mcp_demo_<tool>`).
 *
 * Its tools are small and need nothing from the machine: `add` and `word_count`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import type { McpServerSettings } from '../config/schema';

const PATH = '/mcp';

function buildServer(): McpServer {
  const server = new McpServer({ name: 'agent-workbench-demo', version: '1.0.0' });
  const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
  server.registerTool(
    'add',
    {
      description: 'Adds two numbers.',
      inputSchema: { a: z.number().describe('first number'), b: z.number().describe('second') },
    },
    async ({ a, b }) => text(`${a} + ${b} = ${a + b}`),
  );
  server.registerTool(
    'word_count',
    {
      description: 'Counts the words, lines and characters of a text.',
      inputSchema: { text: z.string().describe('the text to count') },
    },
    async ({ text: input }) => {
      const words = input.split(/\s+/).filter((w) => w !== '').length;
      const lines = input === '' ? 0 : input.split('\n').length;
      const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
      return text(
        `${count(words, 'word')}, ${count(lines, 'line')}, ${count([...input].length, 'character')}`,
      );
    },
  );
  return server;
}

export class DemoMcpServer {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  /** Starts listening on a free port of 127.0.0.1; resolves with the server's settings. */
  async start(): Promise<McpServerSettings> {
    const http = createServer((req, res) => void this.handle(req, res));
    http.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(0, '127.0.0.1', () => resolve());
    });
    this.server = http;
    const { port } = http.address() as AddressInfo;
    return {
      type: 'http',
      url: `http://127.0.0.1:${port}${PATH}`,
      args: [],
      env: {},
      timeout: 30,
    };
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Stateless: a server and transport per request, as the SDK prescribes for it. */
  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== PATH) {
      res.writeHead(404).end();
      return;
    }
    if (req.method !== 'POST') {
      // no server-sent stream or session to end in stateless mode
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const server = buildServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } catch (error) {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            error: { code: -32603, message: `demo MCP server: ${String(error)}` },
            id: null,
          }),
        );
      }
    }
  }
}
