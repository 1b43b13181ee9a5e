/**
 * Remote MCP servers that need auth, against real servers built with the SDK
 * (testing/auth-mcp-servers.ts): a header kept as a secret reaches the server on every
 * request of both HTTP transports and appears nowhere else; the OAuth flow of the MCP
 * authorization spec runs end to end (discovery, dynamic registration, PKCE consent
 * through a loopback redirect, the "browser" being this test following the consent URL
 * with fetch), keeps its tokens in the secret store and refreshes them when they expire.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigService } from '../../config/config-service';
import { FileSecretStore } from '../../config/secrets';
import { mcpAuthContext } from '../../agents/mcp-auth';
import { McpConnection } from './mcp-connection';
import type { SignInRequest } from './mcp-oauth';
import {
  startHeaderServer,
  startOAuthServer,
  type RunningAuthServer,
} from './testing/auth-mcp-servers';

const running: RunningAuthServer[] = [];
const connections: McpConnection[] = [];
afterEach(async () => {
  await Promise.allSettled(connections.splice(0).map((c) => c.close()));
  await Promise.allSettled(running.splice(0).map((s) => s.close()));
  vi.restoreAllMocks();
});

function home() {
  const dir = mkdtempSync(join(tmpdir(), 'wb-mcp-auth-'));
  const file = join(dir, 'config.toml');
  writeFileSync(file, '');
  const secrets = new FileSecretStore(join(dir, 'secrets.json'), undefined, () => {});
  return { dir, file, secrets, config: new ConfigService({ file, secrets, env: {} }) };
}

function connect(
  name: string,
  settings: ConstructorParameters<typeof McpConnection>[1],
  auth: ConstructorParameters<typeof McpConnection>[2],
) {
  const connection = new McpConnection(name, settings, auth);
  connections.push(connection);
  return connection;
}

const SECRET = 'hdr-value-6f1c2a9e';

describe('MCP headers (a real SDK server that wants X-Api-Key)', () => {
  it('sends the stored header on every request of http and sse; the value is nowhere else', async () => {
    const server = await startHeaderServer('X-Api-Key', SECRET);
    running.push(server);
    const { config, file } = home();
    const logged: string[] = [];
    for (const method of ['log', 'warn', 'error'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        logged.push(args.map(String).join(' '));
      });
    }
    // typed in Settings → MCP: the value goes to the secret store
    for (const [name, type, url] of [
      ['keyed', 'http', server.url],
      ['keyedsse', 'sse', server.sseUrl],
    ] as const) {
      config.saveSections({
        mcp: {
          servers: {
            [name]: { type, url, headers: { 'X-Api-Key': { action: 'set', value: SECRET } } },
          },
        },
      });
    }
    expect(readFileSync(file, 'utf8')).not.toContain(SECRET);
    const loaded = config.load();
    const auth = { auth: mcpAuthContext({ config }) };
    const http = connect('keyed', loaded.mcp.servers['keyed']!, auth);
    const sse = connect('keyedsse', loaded.mcp.servers['keyedsse']!, auth);
    const emitted: unknown[] = [];
    http.attach({
      runId: 'r',
      agent: 'mcp',
      emit: (event) => emitted.push(event),
      llmFor: () => {
        throw new Error('no model');
      },
      human: undefined as never,
    });
    expect((await http.listTools()).map((t) => t.name)).toEqual(['whoami']);
    const viaHttp = await http.callTool('whoami', {}, new AbortController().signal);
    expect(JSON.stringify(viaHttp.result)).toContain('key accepted');
    const viaSse = await sse.callTool('whoami', {}, new AbortController().signal);
    expect(JSON.stringify(viaSse.result)).toContain('key accepted over sse');
    // every request carried it: streamable HTTP's POSTs, SSE's GET and its POSTs
    expect(server.requests.length).toBeGreaterThan(4);
    expect(server.requests.filter((r) => r.value !== SECRET)).toEqual([]);
    expect(server.requests.some((r) => r.method === 'GET' && r.path === '/sse')).toBe(true);
    expect(server.requests.some((r) => r.method === 'POST' && r.path === '/messages')).toBe(true);
    expect(server.requests.some((r) => r.method === 'POST' && r.path === '/mcp')).toBe(true);
    expect(JSON.stringify(emitted)).not.toContain(SECRET);
    expect(logged.join('\n')).not.toContain(SECRET);
    expect(http.describe()).not.toContain(SECRET);
    // the run manager redacts it from events
    expect(config.secretValues()).toContain(SECRET);
  });

  it('a header whose secret is missing, or a wrong value, fails naming the header, not the value', async () => {
    const server = await startHeaderServer('X-Api-Key', SECRET);
    running.push(server);
    const { config } = home();
    const missing = connect(
      'keyed',
      {
        type: 'http',
        url: server.url,
        timeout: 10,
        args: [],
        env: {},
        headers: { 'X-Api-Key': 'secret:mcp.keyed.X-Api-Key' },
      },
      { auth: mcpAuthContext({ config }) },
    );
    await expect(missing.listTools()).rejects.toThrow(
      /\[mcp\.servers\.keyed\] headers\.X-Api-Key has no value: the secret "mcp\.keyed\.X-Api-Key" is not stored/,
    );
    config.secrets.set('mcp.keyed.X-Api-Key', 'wrong-value-77');
    const wrong = connect(
      'keyed2',
      {
        type: 'http',
        url: server.url,
        timeout: 10,
        args: [],
        env: {},
        headers: { 'X-Api-Key': 'secret:mcp.keyed.X-Api-Key' },
      },
      { auth: mcpAuthContext({ config }) },
    );
    const error = await wrong.listTools().catch((e: Error) => e);
    expect(String(error)).toMatch(/Could not connect/);
    expect(String(error)).not.toContain('wrong-value-77');
  });
});

describe('MCP OAuth (a real SDK server behind mcpAuthRouter / requireBearerAuth)', () => {
  it('signs in with PKCE through the loopback redirect, keeps the tokens as secrets, refreshes them', async () => {
    const server = await startOAuthServer(1_500);
    running.push(server);
    const { config, file, dir } = home();
    const opened: string[] = [];
    // the "browser": follows the consent URL, then the authorization server's redirect
    // back to the loopback listener, as a browser would
    const openUrl = async ({ url }: SignInRequest) => {
      opened.push(url);
      const consent = await fetch(url, { redirect: 'manual' });
      const back = consent.headers.get('location');
      if (!back) throw new Error(`no redirect from the consent page (${consent.status})`);
      expect(new URL(back).hostname).toBe('127.0.0.1');
      const landed = await fetch(back);
      expect(landed.status).toBe(200);
    };
    const settings = { type: 'http' as const, url: server.url, timeout: 10, args: [], env: {} };
    const auth = { auth: { ...mcpAuthContext({ config }), openUrl } };
    const first = connect('secure', settings, auth);
    expect((await first.listTools()).map((t) => t.name)).toEqual(['whoami']);
    expect(opened).toHaveLength(1);
    const consent = new URL(opened[0]!);
    expect(consent.searchParams.get('code_challenge_method')).toBe('S256');
    expect(consent.searchParams.get('redirect_uri')).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/callback$/,
    );
    expect(server.provider.registered.size).toBe(1); // dynamic client registration
    const call = await first.callTool('whoami', {}, new AbortController().signal);
    expect(JSON.stringify(call.result)).toContain('signed in');
    // tokens are secrets: in secrets.json (0600), never in config.toml
    const access = config.secrets.get('mcp.secure.oauth.access_token');
    const refresh = config.secrets.get('mcp.secure.oauth.refresh_token');
    expect(access).toMatch(/^at-/);
    expect(refresh).toMatch(/^rt-/);
    expect(readFileSync(file, 'utf8')).not.toContain(access!);
    expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).toContain(access!);
    expect(config.secretValues()).toEqual(expect.arrayContaining([access, refresh]));

    // the access token expires: the next request gets a 401 and the SDK refreshes it
    await new Promise((resolve) => setTimeout(resolve, 1_700));
    const again = await first.callTool('whoami', {}, new AbortController().signal);
    expect(JSON.stringify(again.result)).toContain('signed in');
    expect(server.provider.refreshes).toBe(1);
    expect(config.secrets.get('mcp.secure.oauth.access_token')).not.toBe(access);

    // a new connection (the next session) after expiry refreshes before it connects; no
    // new sign-in
    await new Promise((resolve) => setTimeout(resolve, 1_700));
    const later = connect('secure', settings, auth);
    expect((await later.listTools()).map((t) => t.name)).toEqual(['whoami']);
    expect(server.provider.refreshes).toBe(2);
    expect(opened).toHaveLength(1);
    expect(server.provider.authorizations).toBe(1);
  });

  it('says the server needs a sign-in when nobody completes it', async () => {
    const server = await startOAuthServer(60_000);
    running.push(server);
    const { config } = home();
    const settings = { type: 'http' as const, url: server.url, timeout: 10, args: [], env: {} };
    const opened: string[] = [];
    const connection = connect('secure', settings, {
      auth: {
        ...mcpAuthContext({ config }),
        openUrl: ({ url }) => void opened.push(url),
        signInTimeoutMs: 500,
      },
    });
    await expect(connection.listTools()).rejects.toThrow(
      /MCP server "secure" .*needs you to sign in \(OAuth\), and the sign-in did not finish: nobody completed the sign-in within 1 s/,
    );
    expect(opened).toHaveLength(1);
    expect(config.secrets.get('mcp.secure.oauth.access_token')).toBeUndefined();
  });
});
