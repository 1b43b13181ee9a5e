/**
 * What `workbench serve` says about where it listens (issue 25 item 9): a warning when it
 * is reachable from the network, and one line (no stack) when it cannot listen at all.
 */
import { isIP } from 'node:net';

/** 127.0.0.0/8, ::1 and localhost: only this machine can connect. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  // an IPv4-mapped IPv6 loopback (::ffff:127.0.0.1)
  return /^::ffff:127\./.test(bare);
}

/**
 * The warning for a bind other than loopback. Not a refusal: `--host` is already the
 * explicit choice (docs/security.md, "Serving beyond this machine"), but the user must
 * know what the token now guards and that it travels in clear.
 */
export function networkWarning(host: string, port: number): string {
  const where =
    host === '0.0.0.0' || host === '::'
      ? 'every network address of this machine'
      : `the network address ${host}`;
  return [
    `workbench: WARNING: listening on ${where} (port ${port}).`,
    '  Anyone who can reach it and has the URL can run commands in sandboxes, start MCP',
    '  server commands on this host and use the saved API keys: the token in the URL is the',
    '  only guard, and the traffic (token included) is plain HTTP that anyone on the network',
    '  path can read. From another machine, prefer the default --host 127.0.0.1 with an SSH',
    `  tunnel: ssh -L ${port}:127.0.0.1:${port} THIS_HOST`,
    '',
  ].join('\n');
}

/** What to say when listening failed, or undefined for a failure that is a bug (a stack). */
export async function listenFailure(
  error: unknown,
  host: string,
  port: number,
): Promise<string | undefined> {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch (code) {
    case 'EADDRINUSE': {
      const other = (await isWorkbenchAt(host, port))
        ? 'another workbench serve is already listening there'
        : 'another process is listening there';
      return `${where} is in use (${other}): stop that process, or choose another port with --port N (--port 0 picks a free one)`;
    }
    case 'EACCES':
      return `not allowed to listen on ${where} (ports below 1024 need privileges): choose another port with --port N`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on ${where}: ${host} is not an address of this machine (use --host 127.0.0.1, or one of its addresses)`;
    default:
      return undefined;
  }
}

/**
 * Whether what holds the port answers like `workbench serve` (its page's title). Asked
 * on loopback for a wildcard bind; a second at most, and any failure means "not known".
 */
async function isWorkbenchAt(host: string, port: number): Promise<boolean> {
  const probeHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const base = probeHost.includes(':') ? `[${probeHost}]` : probeHost;
  try {
    const response = await fetch(`http://${base}:${port}/`, {
      signal: AbortSignal.timeout(1000),
      redirect: 'manual',
    });
    const text = (await response.text()).slice(0, 4096);
    return text.includes('<title>Agent Workbench</title>');
  } catch {
    return false;
  }
}
