/**
 * An MCP server for tests that floods its client with notifications (issue: an MCP
 * notification flood stalled the runtime). It speaks raw JSON-RPC rather than using the
 * SDK's server so that it controls exactly what goes on the wire, and counts the
 * requests it receives (tools/list above all) so a test can see what the client did.
 *   node --import tsx flood-mcp-server.ts stdio
 *   node --import tsx flood-mcp-server.ts http [port]   (streamable HTTP at /mcp; prints
 *                                                        `LISTENING <port>` once it listens)
 *
 * Tools:
 * - flood {listChanged, messages, progress, unknown, answerAfterMs?, grow?}: sends that
 *   many notifications/tools/list_changed, notifications/message, notifications/progress
 *   (for this call's progress token) and notifications of a method nobody handles,
 *   interleaved, then answers after `answerAfterMs` (never when it is absent). `grow`
 *   adds the tool "grown" to the list first, so a refresh after the flood must see it.
 * - echo {text}: answers at once.
 * - stats: the requests received so far, by method ({"tools/list": 3, ...}).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

interface Request {
  jsonrpc: '2.0';
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
}

interface FloodArgs {
  listChanged?: number;
  messages?: number;
  progress?: number;
  unknown?: number;
  answerAfterMs?: number;
  grow?: boolean;
}

/** Where the messages of one exchange go: a line on stdout, or an event on a response. */
type Send = (message: object) => void;

const received = new Map<string, number>();
let grown = false;

function tools(): object[] {
  const object = (properties: Record<string, object> = {}) => ({ type: 'object', properties });
  const list = [
    {
      name: 'flood',
      description: 'Floods the client with notifications, then answers (or not).',
      inputSchema: object({
        listChanged: { type: 'number' },
        messages: { type: 'number' },
        progress: { type: 'number' },
        unknown: { type: 'number' },
        answerAfterMs: { type: 'number' },
        grow: { type: 'boolean' },
      }),
    },
    {
      name: 'echo',
      description: 'Echoes text.',
      inputSchema: object({ text: { type: 'string' } }),
    },
    { name: 'stats', description: 'Requests received, by method.', inputSchema: object() },
  ];
  if (grown) list.push({ name: 'grown', description: 'Added by a flood.', inputSchema: object() });
  return list;
}

const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

/** The notifications of a flood, interleaved so every kind keeps arriving to the end. */
function floodMessages(args: FloodArgs, progressToken: unknown): object[] {
  const kinds: [number, (i: number) => object][] = [
    [args.listChanged ?? 0, () => ({ method: 'notifications/tools/list_changed' })],
    [
      args.messages ?? 0,
      (i) => ({ method: 'notifications/message', params: { level: 'info', data: `flood ${i}` } }),
    ],
    [
      progressToken === undefined ? 0 : (args.progress ?? 0),
      (i) => ({
        method: 'notifications/progress',
        params: { progressToken, progress: i + 1, total: args.progress, message: `step ${i}` },
      }),
    ],
    [args.unknown ?? 0, (i) => ({ method: 'notifications/flood/noise', params: { i } })],
  ];
  const out: object[] = [];
  const longest = Math.max(...kinds.map(([count]) => count));
  for (let i = 0; i < longest; i++) {
    for (const [count, make] of kinds) if (i < count) out.push({ jsonrpc: '2.0', ...make(i) });
  }
  return out;
}

/**
 * Answers one request (or takes in a notification). `done` is called once this exchange
 * sends nothing more (over HTTP, the response stream ends then).
 */
function handle(request: Request, send: Send, done: () => void): void {
  const method = request.method ?? '(response)';
  received.set(method, (received.get(method) ?? 0) + 1);
  const reply = (result: object) => send({ jsonrpc: '2.0', id: request.id, result });
  if (request.id === undefined || request.method === undefined) return done();
  if (method === 'initialize') {
    const version = request.params?.['protocolVersion'];
    reply({
      protocolVersion: typeof version === 'string' ? version : '2025-06-18',
      capabilities: { tools: { listChanged: true }, logging: {} },
      serverInfo: { name: 'flood-test-server', version: '1.0.0' },
    });
    return done();
  }
  if (method === 'tools/list') {
    reply({ tools: tools() });
    return done();
  }
  if (method !== 'tools/call') {
    if (method === 'ping') reply({});
    else send({ jsonrpc: '2.0', id: request.id, error: { code: -32601, message: method } });
    return done();
  }
  const params = request.params ?? {};
  const args = (params['arguments'] ?? {}) as Record<string, unknown>;
  const name = params['name'];
  if (name === 'echo') {
    reply(text(String(args['text'] ?? '')));
    return done();
  }
  if (name === 'stats') {
    reply(text(JSON.stringify(Object.fromEntries(received))));
    return done();
  }
  if (name !== 'flood') {
    send({ jsonrpc: '2.0', id: request.id, error: { code: -32602, message: `no tool ${name}` } });
    return done();
  }
  const flood = args as FloodArgs;
  if (flood.grow) grown = true;
  const meta = params['_meta'] as Record<string, unknown> | undefined;
  for (const message of floodMessages(flood, meta?.['progressToken'])) send(message);
  if (flood.answerAfterMs === undefined) return; // never answers (nor ends an HTTP stream)
  setTimeout(() => {
    reply(text('flood done'));
    done();
  }, flood.answerAfterMs);
}

function serveStdio(): void {
  // Lines are written in batches: one write per message would make the server, not the
  // client, the bottleneck.
  let batch: string[] = [];
  const flush = () => {
    if (batch.length === 0) return;
    process.stdout.write(batch.join(''));
    batch = [];
  };
  const send: Send = (message) => {
    batch.push(`${JSON.stringify(message)}\n`);
    if (batch.length >= 1000) flush();
  };
  let pending = '';
  process.stdin.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line.trim()) handle(JSON.parse(line) as Request, send, flush);
    }
    flush();
  });
  process.stdin.on('end', () => process.exit(0));
}

function serveHttp(port: number): void {
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'DELETE') return void res.writeHead(200).end();
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Request;
      if (request.id === undefined) {
        handle(
          request,
          () => undefined,
          () => undefined,
        );
        return void res.writeHead(202).end();
      }
      // Every request is answered with an event stream, the notifications first.
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'mcp-session-id': 'flood-session',
      });
      let batch: string[] = [];
      const flush = () => {
        if (batch.length > 0) res.write(batch.join(''));
        batch = [];
      };
      const send: Send = (message) => {
        batch.push(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
        if (batch.length >= 1000) flush();
      };
      handle(request, send, () => {
        flush();
        res.end();
      });
      flush();
    });
  });
  http.listen(port, '127.0.0.1', () => {
    const address = http.address();
    process.stdout.write(
      `LISTENING ${typeof address === 'object' && address ? address.port : port}\n`,
    );
  });
}

const [mode, port] = process.argv.slice(2);
if (mode === 'http') serveHttp(Number(port ?? 0));
else serveStdio();
