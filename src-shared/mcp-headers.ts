/**
 * HTTP headers of a remote MCP server (`[mcp.servers.NAME] headers`): which names may be
 * set, and where their values live. A value is a secret (an API key): config.toml holds
 * `secret:mcp.NAME.HEADER` (the value in the secret store) or `env:VAR`, never the value
 * the UI or an import was given.
 */

/** RFC 9110 token characters: what a header name may be made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Headers the transport sets itself (the protocol's own, or HTTP framing): a value in the
 * config would break the connection or be silently replaced.
 */
export const TRANSPORT_HEADERS = [
  'accept',
  'connection',
  'content-length',
  'content-type',
  'host',
  'last-event-id',
  'mcp-protocol-version',
  'mcp-session-id',
  'transfer-encoding',
] as const;

/** Why NAME cannot be a configured header, or null when it can. */
export function headerNameProblem(name: string): string | null {
  if (!TOKEN.test(name)) {
    return `"${name}" is not a valid HTTP header name (letters, digits and !#$%&'*+-.^_\`|~ only, no spaces or colons)`;
  }
  if ((TRANSPORT_HEADERS as readonly string[]).includes(name.toLowerCase())) {
    return `"${name}" is set by the MCP transport itself and cannot be configured`;
  }
  return null;
}

/** The secret store entry of a header's value. */
export function headerSecretName(server: string, header: string): string {
  return `mcp.${server}.${header}`;
}

/** The secret store entries of a server's OAuth sign-in (mcp-oauth.ts). */
export const OAUTH_SECRET_PARTS = ['access_token', 'refresh_token', 'tokens', 'client'] as const;
export type OAuthSecretPart = (typeof OAUTH_SECRET_PARTS)[number];

export function oauthSecretName(server: string, part: OAuthSecretPart): string {
  return `mcp.${server}.oauth.${part}`;
}

/** How the UI edits one header: its value is write-only, like an API key. */
export type McpHeaderEdit =
  { action: 'keep' } | { action: 'set'; value: string } | { action: 'env'; name: string };

/** What the UI learns of a header: that it is set, never its value. */
export interface McpHeaderView {
  name: string;
  /** the value can be read now (a stored secret, or a set environment variable) */
  isSet: boolean;
  /** `env:NAME`: the variable it is read from */
  env?: string;
}
