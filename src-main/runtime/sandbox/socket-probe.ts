/**
 * The sandbox pre-flight and the orphan sweep's listing without dockerode (issue 27,
 * start-up): "is the engine there", "is the image there" and "which of our containers
 * are there" are GETs on the engine's unix socket. dockerode pulls in
 * docker-modem, ssh2, @grpc/grpc-js and protobufjs when it loads (about 0.2 s and 20 MiB
 * of a run's start); a run now loads them when it creates its sandbox, not before its
 * first model request.
 *
 * Only for a local unix socket; any answer this file does not know how to read (a status
 * other than 200, or 404 for an image) returns null, and the caller asks dockerode, so
 * the errors a user sees keep their words.
 */
import { request } from 'node:http';
import { resolveConnection, type DockerodeEngineOptions } from './engine-connection';
import { ENGINE_DEADLINES, withDeadline } from './deadline';
import { engineUnavailable, isConnectError } from './errors';
import type { ContainerSummary, EngineInfo } from './engine';

/** image names as the config accepts them: anything else is left to dockerode */
const IMAGE_NAME = /^[A-Za-z0-9][A-Za-z0-9._/:@-]*$/;

export interface SocketTarget {
  socketPath: string;
  endpoint: string;
}

/** The engine's unix socket, or null for tcp, ssh and the environment's own settings. */
export function socketTargetOf(options: DockerodeEngineOptions): SocketTarget | null {
  const connection = resolveConnection(options);
  const socketPath = (connection.options as { socketPath?: unknown }).socketPath;
  if (!connection.endpoint.startsWith('unix://') || typeof socketPath !== 'string') return null;
  return { socketPath, endpoint: connection.endpoint };
}

function get(
  target: SocketTarget,
  path: string,
  signal: AbortSignal,
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { socketPath: target.socketPath, path, method: 'GET', headers: { host: 'docker' }, signal },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function call<T>(
  target: SocketTarget,
  what: string,
  ms: number,
  signal: AbortSignal | undefined,
  fn: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  try {
    return await withDeadline(what, target.endpoint, ms, signal, fn);
  } catch (error) {
    if (isConnectError(error)) throw engineUnavailable(error, target.endpoint);
    throw error;
  }
}

/** The engine's version (GET /version, what dockerode's ping asked), or null: ask dockerode. */
export async function pingOverSocket(
  target: SocketTarget,
  signal?: AbortSignal,
  timeoutMs: number = ENGINE_DEADLINES.ping,
): Promise<EngineInfo | null> {
  const { status, body } = await call(target, 'ping', timeoutMs, signal, (s) =>
    get(target, '/version', s),
  );
  if (status !== 200) return null;
  const info = JSON.parse(body.toString('utf8')) as { Version?: unknown; ApiVersion?: unknown };
  return {
    version: String(info.Version),
    apiVersion: String(info.ApiVersion),
    endpoint: target.endpoint,
    isLocal: true,
  };
}

/** Whether the engine has `image` (GET /images/NAME/json), or null: ask dockerode. */
export async function hasImageOverSocket(
  target: SocketTarget,
  image: string,
  signal?: AbortSignal,
  timeoutMs: number = ENGINE_DEADLINES.quick,
): Promise<boolean | null> {
  // the path dockerode builds (getImage(name).inspect()), name as is
  if (!IMAGE_NAME.test(image) || image.includes('..')) return null;
  const { status } = await call(target, 'inspect image', timeoutMs, signal, (s) =>
    get(target, `/images/${image}/json`, s),
  );
  return status === 200 ? true : status === 404 ? false : null;
}

/** Containers with these labels (GET /containers/json, as dockerode asked), or null. */
export async function listContainersOverSocket(
  target: SocketTarget,
  labels: Record<string, string>,
  signal?: AbortSignal,
  timeoutMs: number = ENGINE_DEADLINES.quick,
): Promise<ContainerSummary[] | null> {
  const filters = JSON.stringify({
    label: Object.entries(labels).map(([k, v]) => `${k}=${v}`),
  });
  const path = `/containers/json?all=true&filters=${encodeURIComponent(filters)}`;
  const { status, body } = await call(target, 'list containers', timeoutMs, signal, (s) =>
    get(target, path, s),
  );
  if (status !== 200) return null;
  const list = JSON.parse(body.toString('utf8')) as {
    Id: string;
    Labels?: Record<string, string> | null;
    State: string;
    Image: string;
  }[];
  return list.map((c) => ({ id: c.Id, labels: c.Labels ?? {}, state: c.State, image: c.Image }));
}
