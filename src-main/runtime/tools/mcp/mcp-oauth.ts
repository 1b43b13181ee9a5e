/**
 * OAuth for a streamable HTTP server (the MCP authorization spec), on the SDK's client
 * auth (`@modelcontextprotocol/sdk/client/auth.js`): the SDK discovers the authorization
 * server from the 401's `WWW-Authenticate` resource metadata, registers the client
 * (unless `oauth_client_id` names one), builds the PKCE consent URL and refreshes
 * tokens; this provider keeps what it is given in the secret store (never config.toml),
 * opens the consent page through the host's opener and waits on a loopback redirect
 * (oauth-loopback.ts) for the code.
 *
 * Secret store entries (docs/security.md): `mcp.NAME.oauth.access_token`,
 * `mcp.NAME.oauth.refresh_token` (the values alone, so the run manager's redaction knows
 * them), `mcp.NAME.oauth.tokens` (the rest: type, expiry, scope, issuer, the server URL)
 * and `mcp.NAME.oauth.client` (a registered client's information).
 */
import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpServerSettings } from '../../config/schema';
import type { SecretStore } from '../../config/secrets';
import { oauthSecretName } from '@shared/mcp-headers';
import { awaitAuthorizationCode, CALLBACK_PATH, freeLoopbackPort } from './oauth-loopback';

export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

export type OAuthStore = Pick<SecretStore, 'get' | 'set' | 'delete'>;

export interface SignInRequest {
  server: string;
  /** the consent page */
  url: string;
}

interface TokenMeta extends Omit<OAuthTokens, 'access_token' | 'refresh_token'> {
  /** the server URL the tokens were given for: another URL must sign in again */
  server_url: string;
  /** when they were saved (ms), for the expiry */
  saved_at: number;
}

/** Whether SERVER holds an access token saved for its current URL. */
export function hasSignedIn(store: Pick<SecretStore, 'get'>, server: string, url: string): boolean {
  const meta = parseJson<TokenMeta>(store.get(oauthSecretName(server, 'tokens')));
  return meta?.server_url === url && Boolean(store.get(oauthSecretName(server, 'access_token')));
}

export class WorkbenchOAuthProvider implements OAuthClientProvider {
  private verifier = '';
  private expectedState = '';
  private pending: Promise<string> | null = null;
  private closePending: (() => void) | null = null;

  private constructor(
    private readonly server: string,
    private readonly settings: McpServerSettings,
    private readonly store: OAuthStore,
    private readonly port: number,
    private readonly options: {
      openUrl?: (request: SignInRequest) => void | Promise<void>;
      timeoutMs: number;
      signal?: AbortSignal;
    },
  ) {}

  /** A provider whose redirect port is free now (the registered one when it still is). */
  static async create(
    server: string,
    settings: McpServerSettings,
    store: OAuthStore,
    options: {
      openUrl?: (request: SignInRequest) => void | Promise<void>;
      timeoutMs?: number;
      signal?: AbortSignal;
    } = {},
  ): Promise<WorkbenchOAuthProvider> {
    const client = parseJson<{ redirect_uris?: string[] }>(
      store.get(oauthSecretName(server, 'client')),
    );
    const registered = client?.redirect_uris?.[0]
      ? Number(new URL(client.redirect_uris[0]).port)
      : 0;
    const port = await freeLoopbackPort(registered || undefined);
    return new WorkbenchOAuthProvider(server, settings, store, port, {
      timeoutMs: options.timeoutMs ?? SIGN_IN_TIMEOUT_MS,
      ...(options.openUrl ? { openUrl: options.openUrl } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  get redirectUrl(): string {
    return `http://127.0.0.1:${this.port}${CALLBACK_PATH}`;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Agent Workbench',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.settings.oauth_scope ? { scope: this.settings.oauth_scope } : {}),
    };
  }

  state(): string {
    this.expectedState = randomBytes(16).toString('base64url');
    return this.expectedState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    if (this.settings.oauth_client_id) return { client_id: this.settings.oauth_client_id };
    const stored = parseJson<OAuthClientInformationMixed & { redirect_uris?: string[] }>(
      this.store.get(oauthSecretName(this.server, 'client')),
    );
    // registered for another redirect port (that one is taken now): register again
    if (!stored || !stored.redirect_uris?.includes(this.redirectUrl)) return undefined;
    return stored;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    if (this.settings.oauth_client_id) return;
    this.store.set(oauthSecretName(this.server, 'client'), JSON.stringify(info));
  }

  tokens(): OAuthTokens | undefined {
    const meta = parseJson<TokenMeta>(this.store.get(oauthSecretName(this.server, 'tokens')));
    const access = this.store.get(oauthSecretName(this.server, 'access_token'));
    if (!meta || !access || meta.server_url !== this.settings.url) return undefined;
    const refresh = this.store.get(oauthSecretName(this.server, 'refresh_token'));
    const { server_url: _url, saved_at: savedAt, ...rest } = meta;
    // expires_in counts from when they were saved, not from now
    const expiresIn =
      rest.expires_in !== undefined
        ? Math.max(0, Math.floor(rest.expires_in - (Date.now() - savedAt) / 1000))
        : undefined;
    return {
      ...rest,
      access_token: access,
      ...(refresh ? { refresh_token: refresh } : {}),
      ...(expiresIn !== undefined ? { expires_in: expiresIn } : {}),
    };
  }

  /** Whether the access token's lifetime is over (then it is refreshed before use). */
  isExpired(now = Date.now()): boolean {
    const meta = parseJson<TokenMeta>(this.store.get(oauthSecretName(this.server, 'tokens')));
    return meta?.expires_in !== undefined && now >= meta.saved_at + meta.expires_in * 1000;
  }

  saveTokens(tokens: OAuthTokens): void {
    const { access_token: access, refresh_token: refresh, ...rest } = tokens;
    this.store.set(oauthSecretName(this.server, 'access_token'), access);
    // a refresh that returns no new refresh token keeps the old one (the SDK passes it on)
    if (refresh) this.store.set(oauthSecretName(this.server, 'refresh_token'), refresh);
    const meta: TokenMeta = { ...rest, server_url: this.settings.url ?? '', saved_at: Date.now() };
    this.store.set(oauthSecretName(this.server, 'tokens'), JSON.stringify(meta));
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') {
      for (const part of ['access_token', 'refresh_token', 'tokens'] as const) {
        this.store.delete(oauthSecretName(this.server, part));
      }
    }
    if (scope === 'all' || scope === 'client')
      this.store.delete(oauthSecretName(this.server, 'client'));
    if (scope === 'all' || scope === 'verifier') this.verifier = '';
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no sign-in is under way (no PKCE code verifier)');
    return this.verifier;
  }

  /** The SDK has the consent URL: listen for the redirect, then open it for the user. */
  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.closePending?.();
    const wait = await awaitAuthorizationCode(this.port, this.expectedState, {
      timeoutMs: this.options.timeoutMs,
      ...(this.options.signal ? { signal: this.options.signal } : {}),
    });
    wait.code.catch(() => undefined); // read by waitForCode; an early failure is not unhandled
    this.pending = wait.code;
    this.closePending = wait.close;
    await this.options.openUrl?.({ server: this.server, url: authorizationUrl.href });
  }

  /** The code of the sign-in the SDK started (null when it started none). */
  waitForCode(): Promise<string> | null {
    const pending = this.pending;
    this.pending = null;
    return pending;
  }

  /** Stops listening for a sign-in nobody will finish now. */
  dispose(): void {
    this.closePending?.();
    this.closePending = null;
    this.pending = null;
  }
}

function parseJson<T>(text: string | undefined): T | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

/**
 * What a connection needs from its host for auth: header references read, OAuth tokens
 * kept, the consent page opened. Built by the host (mcp-auth-context.ts); the runtime
 * never opens a browser itself.
 */
export interface McpAuthContext {
  /** `secret:NAME` / `env:VAR` to the value ('' when there is none) */
  resolve(ref: string): string;
  /** where OAuth tokens are kept; without it a server that asks for a sign-in fails */
  store?: OAuthStore;
  /** shows the consent page to the user (the desktop app's browser, the terminal) */
  openUrl?: (request: SignInRequest) => void | Promise<void>;
  /** how long a sign-in waits for the user (default 5 minutes) */
  signInTimeoutMs?: number;
}
