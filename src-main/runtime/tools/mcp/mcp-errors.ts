/**
 * How the failures of an MCP connection are worded for the model and the user: the
 * error class, the transport's reason in one line, a URL without its credentials, and a
 * structured-content mismatch the SDK found, with the path that is wrong.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/** Why a call did not produce a result; the message is written for the model and the user. */
export class McpToolError extends Error {
  constructor(
    message: string,
    readonly kind: 'connect' | 'connection_lost' | 'timeout' | 'protocol',
  ) {
    super(message);
    this.name = 'McpToolError';
  }
}

/**
 * The SDK checks `structuredContent` against the tool's `outputSchema` (ajv) and throws;
 * its "data/temperature must be number" becomes "at /temperature: must be number".
 */
export function structuredMismatch(error: unknown): string | null {
  if (!(error instanceof McpError)) return null;
  const missing = /has an output schema but did not return structured content/.test(error.message);
  if (missing) return 'it returned no structuredContent';
  const found = /Structured content does not match the tool's output schema: (.*)$/s.exec(
    error.message,
  );
  if (!found) return null;
  return found[1]!
    .split(', ')
    .map((problem) => {
      const at = /^data(\S*) (.*)$/.exec(problem);
      return at ? `at ${at[1] || '/'}: ${at[2]}` : problem;
    })
    .join('; ');
}

export function errorText(error: unknown): string {
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    return 'the server closed the connection';
  }
  const text = error instanceof Error ? error.message : String(error);
  const cause =
    error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${(text.split('\n')[0] ?? text).trim()}${cause}`;
}

export function lastLines(text: string, count: number): string {
  return text.split('\n').slice(-count).join(' | ');
}

export function safeUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '(invalid url)';
  }
}
