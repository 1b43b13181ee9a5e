/**
 * Real MCP servers built with the SDK for the auth tests (mcp-auth.int.test.ts): one that
 * wants an API key header on every request (streamable HTTP and SSE), and one protected
 * by the SDK's own OAuth server side (`mcpAuthRouter`, `requireBearerAuth`) with an
 * in-memory provider that issues short-lived access tokens and refresh tokens.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import type { Express, Request, Response } from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthRouter,
} from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type {
  OAuthServerProvider,
  AuthorizationParams,
} from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import {
  InvalidGrantError,
  InvalidTokenError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type {
  OAuthClientInformationFull,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

export interface RunningAuthServer {
  url: string;
  close(): Promise<void>;
}

function mcpServer(text: string): McpServer {
  const server = new McpServer({ name: 'auth-test', version: '1.0.0' });
  server.registerTool('whoami', { description: 'says who is calling' }, async () => ({
    content: [{ type: 'text', text }],
  }));
  return server;
}

/** A stateless streamable HTTP endpoint: a server and transport per request. */
async function handleMcp(req: Request, res: Response, text: string): Promise<void> {
  const server = mcpServer(text);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
}

async function listen(app: Express): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () =>
      resolve({ server, port: (server.address() as AddressInfo).port }),
    );
  });
}

function closer(server: Server): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

export interface HeaderServer extends RunningAuthServer {
  sseUrl: string;
  /** every request: method, path and the header's value as received */
  requests: { method: string; path: string; value?: string }[];
}

/** Answers only requests that carry HEADER: VALUE (401 otherwise), over http and SSE. */
export async function startHeaderServer(header: string, value: string): Promise<HeaderServer> {
  const requests: HeaderServer['requests'] = [];
  const app = express();
  app.use((req, res, next) => {
    const got = req.header(header);
    requests.push({
      method: req.method ?? '',
      path: req.path,
      ...(got !== undefined ? { value: got } : {}),
    });
    if (got !== value) {
      res.status(401).json({ error: `missing or wrong ${header}` });
      return;
    }
    next();
  });
  app.use(express.json());
  app.post('/mcp', (req, res) => void handleMcp(req, res, 'key accepted'));
  app.get('/mcp', (_req, res) => res.status(405).end());
  const sse = new Map<string, SSEServerTransport>();
  app.get('/sse', (_req, res) => {
    const transport = new SSEServerTransport('/messages', res);
    sse.set(transport.sessionId, transport);
    res.on('close', () => sse.delete(transport.sessionId));
    void mcpServer('key accepted over sse').connect(transport);
  });
  app.post('/messages', (req, res) => {
    const transport = sse.get(String(req.query['sessionId']));
    if (!transport) res.status(404).end();
    else void transport.handlePostMessage(req, res, req.body);
  });
  const { server, port } = await listen(app);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    sseUrl: `http://127.0.0.1:${port}/sse`,
    requests,
    close: closer(server),
  };
}

/** An in-memory authorization server: codes, access tokens of TOKEN_MS, refresh tokens. */
class MemoryOAuthProvider implements OAuthServerProvider {
  readonly registered = new Map<string, OAuthClientInformationFull>();
  private readonly codes = new Map<string, { client: string; params: AuthorizationParams }>();
  private readonly access = new Map<
    string,
    { client: string; expiresAt: number; resource?: URL }
  >();
  private readonly refresh = new Map<string, string>();
  refreshes = 0;
  authorizations = 0;

  constructor(private readonly tokenMs: number) {}

  get clientsStore(): OAuthRegisteredClientsStore {
    return {
      getClient: async (id) => this.registered.get(id),
      registerClient: async (client) => {
        const full = { ...client, client_id: randomUUID(), client_id_issued_at: 0 };
        this.registered.set(full.client_id, full as OAuthClientInformationFull);
        return full as OAuthClientInformationFull;
      },
    };
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response) {
    // the user consents at once: straight back to the client's redirect URI with a code
    this.authorizations++;
    const code = randomUUID();
    this.codes.set(code, { client: client.client_id, params });
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(target.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string) {
    const entry = this.codes.get(code);
    if (!entry) throw new Error('unknown code');
    return entry.params.codeChallenge;
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string) {
    const entry = this.codes.get(code);
    if (!entry || entry.client !== client.client_id) throw new Error('bad code');
    this.codes.delete(code);
    return this.issue(client.client_id, entry.params.resource);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, token: string) {
    if (this.refresh.get(token) !== client.client_id)
      throw new InvalidGrantError('bad refresh token');
    this.refresh.delete(token);
    this.refreshes++;
    return this.issue(client.client_id);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const entry = this.access.get(token);
    if (!entry || entry.expiresAt < Date.now()) {
      // the error bearer auth answers with a 401 (any other is a 500)
      throw new InvalidTokenError('invalid or expired token');
    }
    return {
      token,
      clientId: entry.client,
      scopes: [],
      expiresAt: Math.floor(entry.expiresAt / 1000),
    };
  }

  private issue(client: string, resource?: URL): OAuthTokens {
    const accessToken = `at-${randomUUID()}`;
    const refreshToken = `rt-${randomUUID()}`;
    this.access.set(accessToken, {
      client,
      expiresAt: Date.now() + this.tokenMs,
      ...(resource ? { resource } : {}),
    });
    this.refresh.set(refreshToken, client);
    return {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: Math.max(1, Math.round(this.tokenMs / 1000)),
      refresh_token: refreshToken,
    };
  }
}

export interface OAuthMcpServer extends RunningAuthServer {
  provider: MemoryOAuthProvider;
}

/** A streamable HTTP MCP server behind the SDK's OAuth (its own authorization server). */
export async function startOAuthServer(tokenMs: number): Promise<OAuthMcpServer> {
  const provider = new MemoryOAuthProvider(tokenMs);
  const app = express();
  const { server, port } = await listen(app);
  const base = new URL(`http://127.0.0.1:${port}/`);
  const mcpUrl = new URL('/mcp', base);
  app.use(mcpAuthRouter({ provider, issuerUrl: base, resourceServerUrl: mcpUrl }));
  const bearer = requireBearerAuth({
    verifier: provider,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
  });
  app.post('/mcp', express.json(), bearer, (req, res) => void handleMcp(req, res, 'signed in'));
  app.get('/mcp', bearer, (_req, res) => res.status(405).end());
  app.delete('/mcp', bearer, (_req, res) => res.status(405).end());
  return { url: mcpUrl.href, provider, close: closer(server) };
}
