/**
 * dockerode's connection options for one `[sandbox] engines` entry: a unix socket, TCP
 * with TLS (the certificate folder the docker CLI uses: ca.pem, cert.pem, key.pem), or
 * ssh (docker-modem runs `docker system dial-stdio` on the engine's machine through the
 * ssh agent of SSH_AUTH_SOCK, as `docker -H ssh://...` does); without an entry, the
 * engine DOCKER_HOST names, else the local socket.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { engineLabel, type EngineAddress } from '../config/engine-address';
import { EngineUnavailableError } from './errors';
import { hostVerifier } from './known-hosts';

type ConfiguredAddress = Exclude<EngineAddress, { kind: 'environment' }>;

export interface EngineConnection {
  endpoint: string;
  options: Docker.DockerOptions;
  /** ssh: why the engine's host key was refused last, if it was */
  refusal?: () => string | undefined;
  /** ssh: the agent socket offered for the login (SSH_AUTH_SOCK), to word a refused login */
  agentSocket?: string;
}

/**
 * docker-modem lays explicit options over defaults it reads from DOCKER_HOST,
 * DOCKER_TLS_VERIFY and DOCKER_CERT_PATH: with DOCKER_HOST=tcp://... in the environment,
 * `{ socketPath }` alone still dialled that TCP host (its `host` wins over a socket), and
 * an http engine got the environment's certificates. Every key the environment could
 * set is therefore given, as undefined when this engine does not use it.
 */
export function isolated(options: Docker.DockerOptions): Docker.DockerOptions {
  return {
    socketPath: undefined,
    host: undefined,
    port: undefined,
    protocol: 'http',
    ca: undefined,
    cert: undefined,
    key: undefined,
    pathPrefix: '/',
    ...options,
  } as Docker.DockerOptions;
}

export function connectionFor(
  address: ConfiguredAddress,
  env: NodeJS.ProcessEnv,
): EngineConnection {
  const connection = connectionOptions(address, env);
  return { ...connection, options: isolated(connection.options) };
}

function connectionOptions(address: ConfiguredAddress, env: NodeJS.ProcessEnv): EngineConnection {
  const endpoint = engineLabel(address);
  switch (address.kind) {
    case 'unix':
      return { endpoint, options: { socketPath: address.socketPath } };
    case 'ssh': {
      let refused: string | undefined;
      const file = expandHome(address.knownHosts ?? '~/.ssh/known_hosts');
      return {
        endpoint,
        refusal: () => refused,
        ...(env['SSH_AUTH_SOCK'] ? { agentSocket: env['SSH_AUTH_SOCK'] } : {}),
        options: {
          protocol: 'ssh',
          host: address.host,
          port: address.port,
          ...(address.username ? { username: address.username } : {}),
          sshOptions: {
            agent: env['SSH_AUTH_SOCK'],
            hostVerifier: hostVerifier(file, address.host, address.port, (reason) => {
              refused = reason;
            }),
          },
        },
      };
    }
    case 'tcp':
      if (address.certPath === undefined) {
        return { endpoint, options: { host: address.host, port: address.port, protocol: 'http' } };
      }
      return {
        endpoint,
        options: {
          host: address.host,
          port: address.port,
          protocol: 'https',
          ...tlsFiles(expandHome(address.certPath), endpoint),
        },
      };
  }
}

function tlsFiles(folder: string, endpoint: string): { ca: Buffer; cert: Buffer; key: Buffer } {
  const read = (name: string) => {
    try {
      return readFileSync(join(folder, name));
    } catch (error) {
      throw new EngineUnavailableError(
        `The engine ${endpoint} needs ${name} in its cert_path ${folder} ([sandbox] engines ` +
          `in config.toml): ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}. ` +
          'Put the CA, client certificate and key there as ca.pem, cert.pem and key.pem.',
        { cause: error },
      );
    }
  };
  return { ca: read('ca.pem'), cert: read('cert.pem'), key: read('key.pem') };
}

function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
}

export interface DockerodeEngineOptions {
  /** "unix:///path", "tcp://host:port", "npipe://..."; default: $DOCKER_HOST, else the local socket */
  dockerHost?: string;
  /** an entry of `[sandbox] engines` (TLS and ssh included); wins over dockerHost */
  address?: EngineAddress;
  env?: NodeJS.ProcessEnv;
}

/** The connection a DockerodeEngine makes: an entry of `[sandbox] engines`, else DOCKER_HOST. */
export function resolveConnection(options: DockerodeEngineOptions): EngineConnection {
  const env = options.env ?? process.env;
  if (options.address && options.address.kind !== 'environment') {
    return connectionFor(options.address, env);
  }
  const host = options.dockerHost ?? env['DOCKER_HOST'];
  if (host && host.startsWith('unix://')) {
    return { endpoint: host, options: isolated({ socketPath: host.slice('unix://'.length) }) };
  }
  if (host && options.dockerHost !== undefined) {
    const url = new URL(host.includes('//') ? host : `tcp://${host}`);
    return {
      endpoint: host,
      options: isolated({ host: url.hostname, port: Number(url.port || 2375), protocol: 'http' }),
    };
  }
  // docker-modem reads DOCKER_HOST, DOCKER_TLS_VERIFY and DOCKER_CERT_PATH itself.
  if (host) return { endpoint: host, options: {} };
  const socket = defaultSocketPath();
  return { endpoint: `unix://${socket}`, options: isolated({ socketPath: socket }) };
}

function defaultSocketPath(): string {
  if (process.platform === 'win32') return '//./pipe/docker_engine';
  // Docker Desktop's per-user socket, as docker-modem and the docker CLI look for it.
  const user = join(homedir(), '.docker', 'run', 'docker.sock');
  return existsSync(user) ? user : '/var/run/docker.sock';
}
