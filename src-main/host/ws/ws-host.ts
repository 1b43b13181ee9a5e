/**
 * Browser mode (`workbench serve`): serves the built renderer over HTTP and the contract
 * over a WebSocket. Listens on 127.0.0.1 by default. Every WebSocket connection must
 * carry the random token printed in the URL, and browsers from a foreign Origin (or a
 * foreign Host header: DNS rebinding) are refused. A page whose upgrade failed can ask
 * `GET /ws?token=` whether its token is the reason (a tab left open across a restart):
 * a browser never shows it the upgrade's 401.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  TOKEN_PARAM,
  TOKEN_REJECTED_STATUS,
  WS_PATH,
  type WsServerFrame,
} from '@shared/ws-protocol';
import type { Runtime } from '../../runtime/runtime';
import { dispatchRequest, type Handlers } from '../contract';
import { createHostContext, type HostContextOptions, type PushSink } from '../host-context';
import { serveStatic } from './static-files';
import { serveRunImage } from './image-route';
import { CLOSE, parseRequestFrame, type AcceptedRequest } from './ws-frames';
import {
  createSandboxMcpHttpHandler,
  type SandboxMcpHttpOptions,
} from '../../runtime/sandbox-mcp/sandbox-mcp-http';
import { gatewayOf } from '../gateway-handlers';

export interface WsHostOptions {
  runtime: Runtime;
  host?: string;
  port?: number;
  /** folder with the built renderer; without it only the WebSocket is served */
  staticDir?: string;
  token?: string;
  handlers?: Handlers;
  /** docker probe, version, batching (see HostContextOptions) */
  context?: Omit<HostContextOptions, 'mode' | 'handlers'>;
  /**
   * the sandbox MCP server at /mcp/sandbox (docs/mcp.md): its options beyond the host's
   * token, or false to leave it out
   */
  sandboxMcp?: Omit<SandboxMcpHttpOptions, 'host' | 'isToken'> | false;
}

export interface WsHost {
  url: string;
  port: number;
  token: string;
  /** the sandbox MCP server's URL (streamable HTTP; `Authorization: Bearer <token>`) */
  sandboxMcpUrl?: string;
  close(): Promise<void>;
}

/**
 * Requests carry config edits and imported runs (`runs:import` takes up to 200 M
 * characters); a larger frame is refused by the ws library from its header, before it is
 * buffered, and closes that connection with 1009.
 */
export const MAX_FRAME_BYTES = 256 * 1024 * 1024;
/**
 * A client that stops reading (a frozen tab) would make us buffer without end; past
 * this much unsent data it is disconnected, and on reconnecting it reads a snapshot.
 */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

export async function startWsHost(options: WsHostOptions): Promise<WsHost> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? randomBytes(24).toString('base64url');
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const clients = new Set<WebSocket>();
  // Serialized once per push, whatever the number of clients.
  const sink: PushSink = (channel, payload) => {
    const frame = JSON.stringify({ kind: 'push', channel, payload } as WsServerFrame);
    for (const ws of clients) {
      if (ws.readyState !== ws.OPEN) continue;
      if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
        ws.terminate(); // a close frame would queue behind the backlog
        continue;
      }
      ws.send(frame);
    }
  };
  const context = createHostContext(
    options.runtime,
    {
      ...options.context,
      mode: 'browser',
      ...(options.handlers ? { handlers: options.handlers } : {}),
    },
    sink,
  );
  const handlers = context.handlers;
  const sandboxMcp =
    options.sandboxMcp === false
      ? undefined
      : createSandboxMcpHttpHandler({
          // a run named as the app's gateway names an agent's run records into that run
          namedRun: (name) => gatewayOf(options.runtime).sandboxOf(name),
          ...options.sandboxMcp,
          host: options.runtime,
          isToken: (given) => safeEqual(given, token),
        });

  // OTLP traces from other tools become read-only runs (docs/telemetry.md), here behind
  // the serve token; `[telemetry] receiver_port` adds the port both hosts open
  const otlpReceiver = context.otlp.mountable(
    (given) => safeEqual(given, token),
    () => `http://${host.includes(':') ? `[${host}]` : host}:${port()}`,
  );

  const server: Server = createServer((req, res) => {
    if (!isAllowedHost(req, host, port())) {
      res.writeHead(421, { 'content-type': 'text/plain' }).end('Misdirected request');
      return;
    }
    if (new URL(req.url ?? '/', 'http://placeholder').pathname === WS_PATH) {
      answerTokenCheck(req, res, { token, host, port: port() });
      return;
    }
    if (sandboxMcp?.handle(req, res)) return;
    if (otlpReceiver.handle(req, res)) return;
    const history = options.runtime.runs.history;
    const isImage = serveRunImage(req, res, {
      imagePath: (runId, ref) => history.imagePath?.(runId, ref),
      isToken: (given) => safeEqual(given, token),
    });
    if (isImage) return;
    if (!options.staticDir) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    serveStatic(options.staticDir, req, res);
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Until ws takes the socket over, a reset from the client must not be an uncaught error.
    const onEarlyError = () => socket.destroy();
    socket.on('error', onEarlyError);
    const refusal = checkUpgrade(req, token, host, port());
    if (refusal) {
      socket.end(`HTTP/1.1 ${refusal}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      socket.off('error', onEarlyError);
      clients.add(ws);
      // A connected browser can answer ask_human (the question arrives as an event).
      const detach = options.runtime.services.human.attach({ name: 'browser' });
      ws.on('close', () => {
        clients.delete(ws);
        detach();
      });
      // Bad framing, invalid UTF-8, an oversized frame or a reset socket: ws has already
      // closed this connection with the matching code (1002, 1007, 1009); the server and
      // every other connection go on. Without this listener the error would kill the process.
      ws.on('error', () => undefined);
      ws.on('message', (data, isBinary) => {
        if (isBinary) {
          ws.close(CLOSE.unsupportedData, 'the protocol is JSON text frames');
          return;
        }
        const parsed = parseRequestFrame(rawText(data));
        if (!parsed.ok) {
          ws.close(parsed.code, parsed.reason);
          return;
        }
        answer(ws, handlers, parsed).catch((error: unknown) => {
          console.error(`[workbench] answering a request failed: ${(error as Error).message}`);
        });
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  function port(): number {
    const address = server.address();
    return typeof address === 'object' && address ? address.port : 0;
  }
  const displayHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${displayHost}:${port()}/?${TOKEN_PARAM}=${token}`,
    port: port(),
    token,
    ...(sandboxMcp ? { sandboxMcpUrl: `http://${displayHost}:${port()}${sandboxMcp.path}` } : {}),
    async close() {
      await sandboxMcp?.close();
      context.flush();
      context.dispose();
      for (const ws of clients) ws.close(CLOSE.goingAway, 'server closing');
      wss.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

async function answer(ws: WebSocket, handlers: Handlers, request: AcceptedRequest): Promise<void> {
  const result = await dispatchRequest(handlers, request.channel, request.input);
  if (ws.readyState !== ws.OPEN) return;
  ws.send(JSON.stringify({ kind: 'response', id: request.id, result } satisfies WsServerFrame));
}

/** A text message as a string (ws hands over a Buffer, or fragments as Buffer[]). */
function rawText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

/**
 * Returns an HTTP status line when the upgrade must be refused. The Origin is checked
 * before the token, so a page of another origin learns nothing about a token it tries.
 */
function checkUpgrade(
  req: IncomingMessage,
  token: string,
  host: string,
  port: number,
): string | null {
  const url = new URL(req.url ?? '/', 'http://placeholder');
  if (url.pathname !== WS_PATH) return '404 Not Found';
  if (!isAllowedHost(req, host, port)) return '421 Misdirected Request';
  const origin = req.headers.origin;
  // Non-browser clients send no Origin; a browser page from anywhere else is refused.
  if (origin !== undefined && !isOwnOrigin(origin, host, port)) return '403 Forbidden';
  if (!safeEqual(tokenOf(req), token)) return `${TOKEN_REJECTED_STATUS} Unauthorized`;
  return null;
}

/**
 * `GET /ws?token=` without an upgrade: 204 when the token is accepted, 401 when not, and
 * nothing else (the page asks after its upgrade failed; ws-protocol.ts). It tells no more
 * than the upgrade's own 401; a foreign Origin is refused as for the upgrade.
 */
function answerTokenCheck(
  req: IncomingMessage,
  res: ServerResponse,
  bound: { token: string; host: string; port: number },
): void {
  const { token, host, port } = bound;
  const headers = { 'cache-control': 'no-store' };
  const origin = req.headers.origin;
  if (origin !== undefined && !isOwnOrigin(origin, host, port)) {
    res.writeHead(403, headers).end();
  } else if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { ...headers, allow: 'GET, HEAD' }).end();
  } else {
    res.writeHead(safeEqual(tokenOf(req), token) ? 204 : TOKEN_REJECTED_STATUS, headers).end();
  }
}

function tokenOf(req: IncomingMessage): string {
  return new URL(req.url ?? '/', 'http://placeholder').searchParams.get(TOKEN_PARAM) ?? '';
}

/** Constant time, the length included: both sides are hashed to 32 bytes first. */
function safeEqual(a: string, b: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

function isOwnOrigin(origin: string, host: string, port: number): boolean {
  try {
    const parsed = new URL(origin);
    return (
      parsed.protocol === 'http:' &&
      Number(parsed.port) === port &&
      hostMatches(parsed.hostname, host)
    );
  } catch {
    return false;
  }
}

/** When bound to loopback, only loopback Host headers are served (DNS rebinding guard). */
function isAllowedHost(req: IncomingMessage, host: string, port: number): boolean {
  const header = req.headers.host;
  if (!header) return false;
  const name = header.replace(/:\d+$/, '');
  const headerPort = Number(header.match(/:(\d+)$/)?.[1] ?? 80);
  return headerPort === port && hostMatches(name, host);
}

function hostMatches(name: string, boundHost: string): boolean {
  const isLoopbackBind =
    boundHost === '127.0.0.1' || boundHost === '::1' || boundHost === 'localhost';
  if (isLoopbackBind) return LOOPBACK_NAMES.includes(name) || name === '::1';
  // Bound to a specific or wildcard address on purpose: the token is the guard.
  return true;
}
