/**
 * What a connection needs for a server's credentials: its headers' `secret:`/`env:`
 * references resolved, and for streamable HTTP the OAuth provider (mcp-oauth.ts) with its
 * sign-in told to the run and opened in the user's browser. Kept out of mcp-connection.ts,
 * which opens and keeps the connection.
 */
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { McpServerSettings } from '../../config/schema';
import { WorkbenchOAuthProvider, type McpAuthContext, type SignInRequest } from './mcp-oauth';
import type { HostRouter } from './mcp-run-host';

export interface SignInOwner {
  serverName: string;
  settings: McpServerSettings;
  auth: McpAuthContext | undefined;
  router: HostRouter;
  describe(): string;
}

/** `secret:` and `env:` references of the headers; without a host context, the environment. */
export function resolveRef(owner: SignInOwner, ref: string): string {
  if (owner.auth) return owner.auth.resolve(ref);
  return ref.startsWith('env:') ? (process.env[ref.slice(4)] ?? '') : ref;
}

/**
 * The OAuth provider of a streamable HTTP server, when tokens can be kept and no
 * `Authorization` header is configured (that one is the user's own credential). Tokens
 * whose lifetime is over are refreshed before connecting.
 */
export async function oauthProvider(
  owner: SignInOwner,
  headers: Record<string, string> | undefined,
  signal?: AbortSignal,
): Promise<WorkbenchOAuthProvider | undefined> {
  const context = owner.auth;
  if (owner.settings.type !== 'http' || !context?.store) return undefined;
  if (Object.keys(headers ?? {}).some((name) => name.toLowerCase() === 'authorization')) {
    return undefined;
  }
  const provider = await WorkbenchOAuthProvider.create(
    owner.serverName,
    owner.settings,
    context.store,
    {
      openUrl: (request) => askSignIn(owner, request),
      ...(context.signInTimeoutMs ? { timeoutMs: context.signInTimeoutMs } : {}),
      ...(signal ? { signal } : {}),
    },
  );
  if (provider.isExpired() && provider.tokens()?.refresh_token) {
    // a failed refresh is left to the 401 the server answers (a new sign-in then)
    await auth(provider, { serverUrl: owner.settings.url ?? '' }).catch(() => undefined);
  }
  return provider;
}

/** Tells the run (and the terminal) that the server needs a sign-in, and opens the page. */
async function askSignIn(owner: SignInOwner, request: SignInRequest): Promise<void> {
  const text = `${owner.describe()} needs you to sign in (OAuth): the sign-in page was opened in your browser.`;
  owner.router.route()?.host.emit({
    type: 'mcp.log',
    server: owner.serverName,
    level: 'warning',
    logger: 'workbench',
    data: `${text} The run waits for it.`,
  });
  const opener = owner.auth?.openUrl;
  if (!opener) throw new Error('nothing can show the sign-in page here');
  await opener(request);
}
