/**
 * Where a container engine listens, as `[sandbox] engines` names it (issue 18 item 3):
 *
 *   engines = ["DOCKER_HOST", "unix:///run/podman/podman.sock",
 *              { url = "tcp://build-1:2376", cert_path = "~/.docker/build-1", max_containers = 8 },
 *              "ssh://ci@build-2"]
 *
 * An ssh:// engine is reached through the ssh agent (SSH_AUTH_SOCK), and its host key must
 * be in known_hosts (`~/.ssh/known_hosts`, or the entry's `known_hosts` file), as ssh
 * itself insists. `DOCKER_HOST` is the engine the docker CLI would use (DOCKER_HOST, DOCKER_TLS_VERIFY and
 * DOCKER_CERT_PATH, else the local socket). A `tcp://` engine needs TLS (`cert_path`, a
 * folder with ca.pem, cert.pem and key.pem, as `docker --tlsverify` reads it) unless it
 * listens on this machine's loopback: plain TCP gives root on the engine's machine to
 * anyone who can reach the port. Plain parsing: no Node, no file access.
 */

export type EngineAddress =
  | { kind: 'environment' }
  | { kind: 'unix'; socketPath: string }
  | { kind: 'tcp'; host: string; port: number; certPath?: string }
  | { kind: 'ssh'; host: string; port: number; username?: string; knownHosts?: string };

export interface EngineEntry {
  url: string;
  cert_path?: string;
  /** ssh:// only: the known_hosts file its host key is checked against (default ~/.ssh/known_hosts) */
  known_hosts?: string;
  /** the most sandboxes of this app on that engine at once */
  max_containers?: number;
}

/** The literal entry that means "the engine of the environment". */
export const ENVIRONMENT_ENGINE = 'DOCKER_HOST';

const LOOPBACK = /^(127(\.\d{1,3}){3}|localhost|\[?::1\]?)$/i;

/** The parsed address, or a sentence saying what is wrong with the entry and how to fix it. */
export function parseEngineAddress(entry: EngineEntry): EngineAddress | string {
  const url = entry.url.trim();
  if (entry.known_hosts !== undefined && !/^ssh:\/\//i.test(url)) {
    return `${url}: known_hosts applies to ssh:// engines only`;
  }
  if (url === ENVIRONMENT_ENGINE) {
    return entry.cert_path === undefined
      ? { kind: 'environment' }
      : 'cert_path does not apply to DOCKER_HOST (DOCKER_CERT_PATH does)';
  }
  const scheme = /^([a-z]+):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'unix') {
    const socketPath = url.slice('unix://'.length);
    if (!socketPath.startsWith('/')) return `${url}: a unix:// address needs an absolute path`;
    if (entry.cert_path !== undefined) return `${url}: cert_path applies to tcp:// engines only`;
    return { kind: 'unix', socketPath };
  }
  if (scheme !== 'tcp' && scheme !== 'ssh') {
    return (
      `${url} is not an engine address: use unix:///PATH, tcp://HOST:PORT (with cert_path), ` +
      `ssh://USER@HOST or ${ENVIRONMENT_ENGINE}`
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${url} is not a valid address`;
  }
  if (!parsed.hostname) return `${url}: the host is missing`;
  if (parsed.pathname !== '' && parsed.pathname !== '/') return `${url}: no path is expected`;
  if (scheme === 'ssh') {
    if (entry.cert_path !== undefined) return `${url}: cert_path applies to tcp:// engines only`;
    return {
      kind: 'ssh',
      host: parsed.hostname,
      port: Number(parsed.port || 22),
      ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
      ...(entry.known_hosts !== undefined ? { knownHosts: entry.known_hosts } : {}),
    };
  }
  const port = Number(parsed.port || (entry.cert_path === undefined ? 2375 : 2376));
  if (entry.cert_path === undefined && !LOOPBACK.test(parsed.hostname)) {
    return (
      `${url}: a TCP engine on another machine needs TLS; add cert_path = "FOLDER" ` +
      '(with ca.pem, cert.pem and key.pem): plain TCP gives root on that machine to anyone ' +
      'who can reach the port'
    );
  }
  return {
    kind: 'tcp',
    host: parsed.hostname,
    port,
    ...(entry.cert_path !== undefined ? { certPath: entry.cert_path } : {}),
  };
}

/** One spelling per engine, for display, `sandbox.changed` and telling entries apart. */
export function engineLabel(address: EngineAddress, environment?: string): string {
  switch (address.kind) {
    case 'environment':
      return environment || ENVIRONMENT_ENGINE;
    case 'unix':
      return `unix://${address.socketPath}`;
    case 'tcp':
      return `tcp://${address.host}:${address.port}${address.certPath ? ' (TLS)' : ''}`;
    case 'ssh':
      return `ssh://${address.username ? `${address.username}@` : ''}${address.host}:${address.port}`;
  }
}
