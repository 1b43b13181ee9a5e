/**
 * The sandbox MCP server over streamable HTTP, as a handler any Node HTTP server mounts
 * (`workbench serve`; the model gateway can mount the same): `handle(req, res)` answers
 * requests to its path and returns false for any other, so the host goes on.
 *
 * - Only loopback clients (the socket's peer address), only with the token
 *   (`Authorization: Bearer TOKEN`), and a browser page of another origin is refused
 *   (an `Origin` header that is not loopback: DNS rebinding).
 * - One MCP session (`mcp-session-id`) is one run in the history, unless the client names
 *   a run: the header `X-Workbench-Run: NAME` or `?run=NAME` on the URL. A named session's
 *   call goes to the run `namedRun(NAME)` gives when there is one at that moment (the
 *   gateway's open run of the agent of that name); otherwise every session naming NAME
 *   records into one sandbox run of its own titled NAME, closed with its last session. A
 *   named session lists its tools without opening a run.
 * - A session idle for `idleMs` (default 30 minutes) is closed, its run with it.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SandboxRun, type SandboxRunHost, type SandboxRunOptions } from './sandbox-run';
import { createSandboxMcpServer } from './sandbox-mcp-server';
import { sandboxToolDescriptions } from './sandbox-tool-descriptions';

export const SANDBOX_MCP_PATH = '/mcp/sandbox';
export const RUN_HEADER = 'x-workbench-run';
export const RUN_PARAM = 'run';
const DEFAULT_IDLE_MS = 30 * 60_000;

export interface SandboxMcpHttpOptions {
  host: SandboxRunHost;
  /** true when `given` is the host's token (compared in constant time by the host) */
  isToken(given: string): boolean;
  /** the run a client names, when another part owns it (the gateway's run of that agent) */
  namedRun?: (name: string) => SandboxRun | undefined;
  /** the workspace of the sessions' runs (a host folder mounted or copied); default the session's own */
  workspace?: SandboxRunOptions['workspace'];
  path?: string;
  idleMs?: number;
}

export interface SandboxMcpHttpHandler {
  readonly path: string;
  /** answers a request to `path`; false for any other path (not touched) */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** the MCP sessions open now */
  readonly sessionCount: number;
  /** closes every session and their runs */
  close(): Promise<void>;
}

interface McpSession {
  transport: StreamableHTTPServerTransport;
  server: Server;
  /** an unnamed session's own run */
  run: Promise<SandboxRun> | null;
  runName?: string;
  /** a named session that joined the sandbox run of its name (counted in its `sessions`) */
  isSharing: boolean;
  lastSeen: number;
}

interface SharedRun {
  run: Promise<SandboxRun>;
  sessions: number;
}

export function createSandboxMcpHttpHandler(options: SandboxMcpHttpOptions): SandboxMcpHttpHandler {
  const path = options.path ?? SANDBOX_MCP_PATH;
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  const sessions = new Map<string, McpSession>();
  const named = new Map<string, SharedRun>();
  let isClosed = false;

  const ownRun = (title: string) =>
    SandboxRun.start(options.host, {
      title,
      ...(options.workspace ? { workspace: options.workspace } : {}),
    });

  /** The run a call of this session goes to (see the header comment). */
  const runOf = (session: McpSession, client: string | undefined): Promise<SandboxRun> => {
    const runName = session.runName;
    if (runName === undefined) {
      return (session.run ??= ownRun(`MCP sandbox session (HTTP)${client ? `: ${client}` : ''}`));
    }
    const borrowed = options.namedRun?.(runName);
    if (borrowed && !borrowed.isOver) return Promise.resolve(borrowed);
    let shared = named.get(runName);
    if (!shared) {
      const created: SharedRun = { run: ownRun(runName), sessions: 0 };
      named.set(runName, created);
      created.run.catch(() => {
        if (named.get(runName) === created) named.delete(runName);
      });
      shared = created;
    }
    if (!session.isSharing) {
      session.isSharing = true;
      shared.sessions++;
    }
    return shared.run;
  };

  const endSession = async (id: string) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    if (session.runName === undefined) {
      const run = await session.run?.catch(() => null);
      await run?.close();
      return;
    }
    const shared = named.get(session.runName);
    if (!session.isSharing || !shared) return;
    if (--shared.sessions <= 0) {
      named.delete(session.runName);
      const run = await shared.run.catch(() => null);
      await run?.close();
    }
  };

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) {
        if (now - session.lastSeen > idleMs) {
          void session.transport.close().catch(() => undefined);
          void endSession(id);
        }
      }
    },
    Math.min(60_000, idleMs),
  );
  sweep.unref();

  const serve = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const id = headerValue(req, 'mcp-session-id');
    const known = id !== undefined ? sessions.get(id) : undefined;
    if (known) {
      known.lastSeen = Date.now();
      await known.transport.handleRequest(req, res);
      return;
    }
    if (id !== undefined) {
      // The MCP spec: an unknown session gets 404 and the client starts a new one.
      reply(res, 404, 'Unknown or closed MCP session: start a new one (initialize).');
      return;
    }
    if (req.method !== 'POST') {
      reply(res, 400, 'Start a session with a POST of initialize first.');
      return;
    }
    const { StreamableHTTPServerTransport } =
      await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
    const runName = headerValue(req, RUN_HEADER) ?? url.searchParams.get(RUN_PARAM) ?? undefined;
    const session: Partial<McpSession> = { run: null, isSharing: false, lastSeen: Date.now() };
    if (runName !== undefined && runName !== '') session.runName = runName;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, session as McpSession);
      },
      onsessionclosed: (sessionId) => endSession(sessionId),
    });
    const server = await createSandboxMcpServer(
      (client) => runOf(session as McpSession, client),
      session.runName !== undefined
        ? () => sandboxToolDescriptions(options.host.services.loadConfig().sandbox)
        : undefined,
    );
    session.transport = transport;
    session.server = server;
    transport.onclose = () => {
      if (transport.sessionId !== undefined) void endSession(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };

  return {
    path,
    get sessionCount() {
      return sessions.size;
    },
    handle(req, res) {
      const url = new URL(req.url ?? '/', 'http://placeholder');
      if (url.pathname !== path) return false;
      const refusal = isClosed ? 'closing' : refuse(req, options.isToken);
      if (refusal) {
        reply(res, refusal === 'token' ? 401 : 403, REFUSALS[refusal]);
        return true;
      }
      serve(req, res, url).catch((error: unknown) => {
        console.error(`[workbench] sandbox MCP request failed: ${(error as Error).message}`);
        if (!res.headersSent) reply(res, 500, (error as Error).message);
        else res.end();
      });
      return true;
    },
    async close() {
      isClosed = true;
      clearInterval(sweep);
      const ids = [...sessions.keys()];
      await Promise.allSettled(
        ids.map(async (id) => {
          await sessions.get(id)?.transport.close();
          await endSession(id);
        }),
      );
    },
  };
}

const REFUSALS = {
  closing: 'The workbench is shutting down.',
  remote: 'The sandbox MCP server answers loopback clients only.',
  origin: 'Requests from a web page of another origin are refused.',
  token:
    'Missing or wrong token: send "Authorization: Bearer TOKEN" (the token of the serve URL, or WORKBENCH_SERVE_TOKEN).',
} as const;

function refuse(
  req: IncomingMessage,
  isToken: (given: string) => boolean,
): keyof typeof REFUSALS | null {
  if (!isLoopbackAddress(req.socket.remoteAddress)) return 'remote';
  const origin = headerValue(req, 'origin');
  if (origin !== undefined && !isLoopbackOrigin(origin)) return 'origin';
  const auth = headerValue(req, 'authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(auth);
  if (!match || !isToken(match[1]!)) return 'token';
  return null;
}

export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    const host = new URL(origin).hostname;
    return host === 'localhost' || host === '[::1]' || host.startsWith('127.');
  } catch {
    return false;
  }
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function reply(res: ServerResponse, status: number, message: string): void {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
