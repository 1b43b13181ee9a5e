/**
 * A real MCP server for tests, built on the official SDK. Run it with
 *   node --import tsx test-mcp-server.ts stdio
 *   node --import tsx test-mcp-server.ts http [port]   (streamable HTTP at /mcp)
 *   node --import tsx test-mcp-server.ts sse [port]    (SSE at /sse, posts to /messages)
 * The HTTP modes print `LISTENING <port>` on stdout once they accept connections.
 *
 * Tools: add, counter (counts calls per connection, so tests can tell connections
 * apart), whoami (process id and connection number), snapshot (returns a PNG image),
 * fail (an isError result), crash (the process exits mid-call), slow, terminate (a
 * server-side tool that must not end the agent's run), "dotted.name", and grow / shrink
 * (add and remove the tool "grown", so the server sends tools/list_changed).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { z } from 'zod';

/** A 2x2 red PNG. */
export const TEST_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';

let connectionCount = 0;

function buildServer(): McpServer {
  const connection = ++connectionCount;
  let calls = 0;
  const server = new McpServer({ name: 'workbench-test-server', version: '1.0.0' });
  const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

  server.registerTool(
    'add',
    {
      description: 'Adds two numbers.',
      inputSchema: {
        a: z.number().describe('first number'),
        b: z.number().describe('second number'),
      },
    },
    async ({ a, b }) => text(String(a + b)),
  );
  server.registerTool(
    'counter',
    { description: 'Counts its calls on this connection.' },
    async () => text(`call ${++calls} on connection ${connection}`),
  );
  server.registerTool('whoami', { description: 'Process id and connection number.' }, async () =>
    text(JSON.stringify({ pid: process.pid, connection })),
  );
  server.registerTool('snapshot', { description: 'Returns a small PNG image.' }, async () => ({
    content: [
      { type: 'text' as const, text: 'a red square' },
      { type: 'image' as const, data: TEST_PNG_BASE64, mimeType: 'image/png' },
    ],
  }));
  server.registerTool('fail', { description: 'Always fails.' }, async () => ({
    content: [{ type: 'text' as const, text: 'deliberate failure' }],
    isError: true,
  }));
  server.registerTool('crash', { description: 'Exits the server process mid-call.' }, async () => {
    process.stderr.write('test server: crashing on purpose\n');
    setTimeout(() => process.exit(3), 10);
    return new Promise<never>(() => undefined);
  });
  server.registerTool(
    'slow',
    { description: 'Waits, then answers.', inputSchema: { ms: z.number().int().min(0) } },
    async ({ ms }) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return text(`waited ${ms} ms`);
    },
  );
  server.registerTool(
    'terminate',
    {
      description: 'A server-side tool that happens to be called terminate.',
      inputSchema: { status: z.string() },
    },
    async ({ status }) => text(`server terminate called with ${status}`),
  );
  server.registerTool('dotted.name', { description: 'A name with a dot.' }, async () =>
    text('dotted ok'),
  );
  // Tools that change the tool list mid-session (the SDK sends tools/list_changed).
  let grown: { remove(): void } | null = null;
  server.registerTool('grow', { description: 'Adds the tool "grown".' }, async () => {
    grown ??= server.registerTool('grown', { description: 'Added at run time.' }, async () =>
      text('grown ok'),
    );
    return text('added "grown"');
  });
  server.registerTool('shrink', { description: 'Removes the tool "grown".' }, async () => {
    grown?.remove();
    grown = null;
    return text('removed "grown"');
  });
  return server;
}

async function serveStdio(): Promise<void> {
  await buildServer().connect(new StdioServerTransport());
}

function listen(port: number, handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const http = createServer((req, res) => {
    handler(req, res);
  });
  http.listen(port, '127.0.0.1', () => {
    const address = http.address();
    const actual = typeof address === 'object' && address ? address.port : port;
    process.stdout.write(`LISTENING ${actual}\n`);
  });
}

function serveHttp(port: number): void {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  listen(port, (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== '/mcp') {
        res.writeHead(404).end();
        return;
      }
      const sessionId = req.headers['mcp-session-id'];
      let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
      if (!transport) {
        if (typeof sessionId === 'string') {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              jsonrpc: '2.0',
              error: { code: -32001, message: 'Session not found' },
              id: null,
            }),
          );
          return;
        }
        const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => {
            transports.set(id, created);
          },
        });
        created.onclose = () => {
          if (created.sessionId) transports.delete(created.sessionId);
        };
        await buildServer().connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res);
    })().catch((error: unknown) => {
      process.stderr.write(`test server: ${String(error)}\n`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
}

function serveSse(port: number): void {
  const transports = new Map<string, SSEServerTransport>();
  listen(port, (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (req.method === 'GET' && url.pathname === '/sse') {
        const transport = new SSEServerTransport('/messages', res);
        transports.set(transport.sessionId, transport);
        res.on('close', () => transports.delete(transport.sessionId));
        await buildServer().connect(transport);
        return;
      }
      if (req.method === 'POST' && url.pathname === '/messages') {
        const transport = transports.get(url.searchParams.get('sessionId') ?? '');
        if (!transport) {
          res.writeHead(404).end('unknown session');
          return;
        }
        await transport.handlePostMessage(req, res);
        return;
      }
      res.writeHead(404).end();
    })().catch((error: unknown) => {
      process.stderr.write(`test server: ${String(error)}\n`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
}

const [mode = 'stdio', portArg = '0'] = process.argv.slice(2);
if (mode === 'stdio') await serveStdio();
else if (mode === 'http') serveHttp(Number(portArg));
else if (mode === 'sse') serveSse(Number(portArg));
else {
  process.stderr.write(`unknown mode ${mode}: use stdio, http or sse\n`);
  process.exit(2);
}
