/**
 * An HTTP proxy for tests that sits in front of an MCP server over SSE or streamable
 * HTTP and records the JSON-RPC messages the client POSTs, so a test can see what really
 * reached the server (a `notifications/cancelled` after a stop). Responses, event streams
 * included, are passed through untouched.
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';

export interface RecordedMessage {
  method?: string;
  id?: number | string;
  params?: Record<string, unknown>;
}

export interface RecordingProxy {
  url: (path: string) => string;
  messages: RecordedMessage[];
  close(): Promise<void>;
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const messages: RecordedMessage[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    const headers: IncomingHttpHeaders = { ...req.headers, host: upstream.host };
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers,
      },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    res.on('close', () => forward.destroy());
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST' && body.length > 0) {
        try {
          const parsed = JSON.parse(body.toString('utf8')) as RecordedMessage | RecordedMessage[];
          messages.push(...(Array.isArray(parsed) ? parsed : [parsed]));
        } catch {
          // not JSON-RPC: passed on, not recorded
        }
      }
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    messages,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
