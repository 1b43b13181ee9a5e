/**
 * Why a connection to a model server failed, in words a user can act on. One function
 * for both the model client (llm-errors.ts) and Test connection (config/connection-test.ts),
 * so a run and the settings page never disagree about the cause. It lives in util/
 * because config/ may import nothing else (eslint/layers.js) and llm/ sits above config/.
 *
 * Node's fetch (undici) wraps the system error twice (`TypeError: fetch failed` with the
 * errno error as its cause), and refuses some ports outright with a code-less
 * `Error: bad port` (the Fetch standard's blocked ports: 1, 7, 9, 11, …, 6000, …): that
 * one used to be retried for ~12 s and reported as a generic "Network error".
 */

export type ConnectionCauseKind =
  'refused' | 'dns' | 'tls' | 'timeout' | 'blocked-port' | 'reset' | 'unreachable' | 'other';

export interface ConnectionFailure {
  kind: ConnectionCauseKind;
  /** the system or undici code, when there was one */
  code?: string;
  /** worth trying again: the same request may work in a moment */
  retryable: boolean;
  /** one sentence naming the cause and what to check */
  message: string;
}

export interface ConnectionTarget {
  /** the base URL, already fit for display (no credentials) */
  baseUrl: string;
  profileName: string;
}

const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
const UNREACHABLE_CODES = new Set(['ENETUNREACH', 'EHOSTUNREACH', 'ENETDOWN', 'EHOSTDOWN']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ECONNABORTED']);
const TLS_CODE = /CERT|SSL|TLS|EPROTO|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/i;

/** The errors on a cause chain, outermost first (bounded: chains can be cyclic). */
function chain(error: unknown): unknown[] {
  const out: unknown[] = [];
  let current = error;
  for (let depth = 0; depth < 8 && current && !out.includes(current); depth++) {
    out.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return out;
}

/** The first system-style `code` on an error's cause chain. */
export function chainCode(error: unknown): string | undefined {
  for (const link of chain(error)) {
    const code = (link as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z_0-9]+$/.test(code)) return code;
  }
  return undefined;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

function portOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
  } catch {
    return '?';
  }
}

/** The innermost message on the chain: "connect ECONNREFUSED 127.0.0.1:9", not "Connection error." */
function innermostMessage(error: unknown): string {
  const links = chain(error);
  for (let i = links.length - 1; i >= 0; i--) {
    const message = (links[i] as { message?: unknown }).message;
    if (typeof message === 'string' && message.trim()) return message.split('\n')[0]!.slice(0, 200);
  }
  return String(error);
}

/**
 * Explains a failure to connect (the SDK's APIConnectionError or a bare fetch error).
 * Not for HTTP answers: a status means the connection worked.
 */
export function explainConnectionFailure(
  error: unknown,
  target: ConnectionTarget,
): ConnectionFailure {
  const { baseUrl, profileName } = target;
  const check = `check base_url of profile "${profileName}"`;
  const code = chainCode(error);
  const withCode = code ? { code } : {};
  if (code === 'ECONNREFUSED') {
    return {
      kind: 'refused',
      code,
      retryable: false,
      message: `Nothing is listening at ${baseUrl} (connection refused): is the server running? Or ${check}.`,
    };
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
    return {
      kind: 'dns',
      code,
      // EAI_AGAIN is the resolver failing for now, not the name being unknown
      retryable: code === 'EAI_AGAIN',
      message: `Could not resolve the host name "${hostOf(baseUrl)}" of ${baseUrl} (${code}): ${check}, and that this machine can reach its DNS.`,
    };
  }
  if (code && TLS_CODE.test(code)) {
    return {
      kind: 'tls',
      code,
      retryable: false,
      message: `TLS error talking to ${baseUrl} (${code}): the server's certificate was not accepted (or it does not speak https); ${check}.`,
    };
  }
  if (code && TIMEOUT_CODES.has(code)) {
    return {
      kind: 'timeout',
      code,
      retryable: true,
      message: `No answer from ${baseUrl} in time (${code}): the server is slow or unreachable; ${check}.`,
    };
  }
  if (code && UNREACHABLE_CODES.has(code)) {
    return {
      kind: 'unreachable',
      code,
      retryable: true,
      message: `No route to ${baseUrl} (${code}): the network or host is down; ${check}.`,
    };
  }
  if (code && RESET_CODES.has(code)) {
    return {
      kind: 'reset',
      code,
      retryable: true,
      message: `The connection to ${baseUrl} was cut (${code}) before an answer came.`,
    };
  }
  const inner = innermostMessage(error);
  if (!code && /^bad port$/i.test(inner)) {
    const port = portOf(baseUrl);
    return {
      kind: 'blocked-port',
      retryable: false,
      message: `${baseUrl} uses port ${port}, which Node's fetch refuses to connect to (a "bad port" of the Fetch standard, like 9 or 6000): run the server on another port and ${check}.`,
    };
  }
  return {
    kind: 'other',
    ...withCode,
    retryable: true,
    message: `Could not connect to ${baseUrl}${code ? ` (${code})` : ''}: ${inner}; ${check}.`,
  };
}
