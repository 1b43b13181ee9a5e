/**
 * The container engine on dockerode: the local socket by default, DOCKER_HOST (and
 * DOCKER_TLS_VERIFY / DOCKER_CERT_PATH) honoured the way the docker CLI does, so a remote
 * engine works the same way. Every call runs under a deadline and the caller's signal.
 */
import type { Duplex, Readable } from 'node:stream';
import Docker from 'dockerode';
import { CgroupPidsReader } from './cgroup-pids';
import { ENGINE_DEADLINES, withDeadline } from './deadline';
import type {
  CallOptions,
  ContainerEngine,
  ContainerSpec,
  ContainerState,
  ContainerSummary,
  EngineCapacity,
  EngineInfo,
  ExecSpec,
  ExecState,
  ImageSummary,
  ExecStream,
  PullProgress,
} from './engine';
import {
  EngineUnavailableError,
  ImageUnavailableError,
  engineMessage,
  engineUnavailable,
  isConnectError,
  statusOf,
} from './errors';
import { PullTracker, type PullEvent } from './pull-progress';
import { SocketExecStream } from './socket-exec-stream';
import { resolveConnection, type DockerodeEngineOptions } from './engine-connection';
import { sshFailure } from './ssh-errors';

export { ENGINE_DEADLINES } from './deadline';

export type { DockerodeEngineOptions } from './engine-connection';

export class DockerodeEngine implements ContainerEngine {
  readonly endpoint: string;
  private readonly docker: Docker;
  private readonly cgroups = new CgroupPidsReader();
  /** an ssh engine: why its host key was refused (the error ssh2 gives does not say) */
  private readonly refusal: (() => string | undefined) | undefined;
  private readonly agentSocket: string | undefined;

  constructor(options: DockerodeEngineOptions = {}) {
    const connection = resolveConnection(options);
    this.endpoint = connection.endpoint;
    this.docker = new Docker(connection.options);
    this.refusal = connection.refusal;
    this.agentSocket = connection.agentSocket;
  }

  get isLocal(): boolean {
    return this.endpoint.startsWith('unix://') || this.endpoint.startsWith('npipe://');
  }

  async ping(options: CallOptions = {}): Promise<EngineInfo> {
    // The typings omit version()'s options; dockerode does pass abortSignal through.
    const version = (this.docker.version as (opts: object) => Promise<Docker.DockerVersion>).bind(
      this.docker,
    );
    const info = await this.call('ping', ENGINE_DEADLINES.ping, options, (abortSignal) =>
      version({ abortSignal }),
    );
    return {
      version: String(info.Version),
      apiVersion: String(info.ApiVersion),
      endpoint: this.endpoint,
      isLocal: this.isLocal,
    };
  }

  async capacity(options: CallOptions = {}): Promise<EngineCapacity> {
    const info = (await this.call('engine info', ENGINE_DEADLINES.ping, options, (abortSignal) =>
      // The typings omit info()'s options; dockerode passes abortSignal through.
      (this.docker.info as (opts: object) => Promise<unknown>).call(this.docker, { abortSignal }),
    )) as { NCPU?: unknown; MemTotal?: unknown; ContainersRunning?: unknown };
    const number = (value: unknown) => (typeof value === 'number' && value >= 0 ? value : 0);
    return {
      cpus: number(info.NCPU),
      memoryBytes: number(info.MemTotal),
      runningContainers: number(info.ContainersRunning),
    };
  }

  async hasImage(image: string, options: CallOptions = {}): Promise<boolean> {
    try {
      await this.call('inspect image', ENGINE_DEADLINES.quick, options, (abortSignal) =>
        this.docker.getImage(image).inspect({ abortSignal } as object),
      );
      return true;
    } catch (error) {
      if (statusOf(error) === 404) return false;
      throw error;
    }
  }

  async listImages(options: CallOptions = {}): Promise<ImageSummary[]> {
    const images = await this.call('list images', ENGINE_DEADLINES.quick, options, (abortSignal) =>
      this.docker.listImages({ abortSignal } as object),
    );
    return images
      .map((image) => ({
        tags: (image.RepoTags ?? []).filter((tag) => tag !== '<none>:<none>'),
        sizeBytes: image.Size,
        createdAt: image.Created * 1000,
      }))
      .filter((image) => image.tags.length > 0);
  }

  async pullImage(
    image: string,
    onProgress: (progress: PullProgress) => void,
    options: CallOptions = {},
  ): Promise<void> {
    const timeoutMs = options.timeoutMs ?? ENGINE_DEADLINES.pull;
    await this.call('pull image', timeoutMs, options, async (abortSignal) => {
      let stream: Readable;
      try {
        stream = (await this.docker.pull(image, { abortSignal })) as Readable;
      } catch (error) {
        if (isConnectError(error)) throw error;
        throw new ImageUnavailableError(engineMessage(error), { cause: error });
      }
      const tracker = new PullTracker();
      await new Promise<void>((resolve, reject) => {
        abortSignal.addEventListener('abort', () => stream.destroy(), { once: true });
        this.docker.modem.followProgress(
          stream,
          (error: Error | null) => (error ? reject(error) : resolve()),
          (event: PullEvent) => {
            if (event.error) {
              reject(new ImageUnavailableError(String(event.error)));
              stream.destroy();
              return;
            }
            const progress = tracker.update(event);
            if (progress) onProgress(progress);
          },
        );
      });
    });
  }

  async createContainer(spec: ContainerSpec, options: CallOptions = {}): Promise<string> {
    const { name, ...body } = spec;
    const container = await this.call('create container', ENGINE_DEADLINES.create, options, (s) =>
      this.docker.createContainer({
        ...(body as unknown as Docker.ContainerCreateOptions),
        ...(name ? { name } : {}),
        abortSignal: s,
      } as Docker.ContainerCreateOptions),
    );
    return container.id;
  }

  async startContainer(id: string, options: CallOptions = {}): Promise<void> {
    await this.call('start container', ENGINE_DEADLINES.create, options, (abortSignal) =>
      this.docker.getContainer(id).start({ abortSignal } as object),
    );
  }

  async restartContainer(id: string, options: CallOptions = {}): Promise<void> {
    // t=0: the sandbox is being reset because it is stuck; there is nothing to shut down gently.
    await this.call('restart container', ENGINE_DEADLINES.create, options, (abortSignal) =>
      this.docker.getContainer(id).restart({ t: 0, abortSignal } as object),
    );
  }

  async inspectContainer(id: string, options: CallOptions = {}): Promise<ContainerState | null> {
    try {
      const info = await this.call('inspect container', ENGINE_DEADLINES.quick, options, (s) =>
        this.docker.getContainer(id).inspect({ abortSignal: s } as object),
      );
      return {
        id: info.Id,
        isRunning: info.State.Running === true,
        status: info.State.Status,
        exitCode: info.State.ExitCode,
        isOomKilled: info.State.OOMKilled === true,
        labels: info.Config.Labels ?? {},
        raw: info as unknown as Record<string, unknown>,
      };
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  async removeContainer(id: string, options: CallOptions = {}): Promise<void> {
    this.cgroups.forget(id);
    try {
      await this.call('remove container', ENGINE_DEADLINES.create, options, (abortSignal) =>
        this.docker.getContainer(id).remove({ force: true, v: true, abortSignal } as object),
      );
    } catch (error) {
      const status = statusOf(error);
      // 404: already gone; 409: a removal is already in progress.
      if (status === 404 || status === 409) return;
      throw error;
    }
  }

  async listContainers(
    labels: Record<string, string>,
    options: CallOptions = {},
  ): Promise<ContainerSummary[]> {
    const filters = JSON.stringify({
      label: Object.entries(labels).map(([k, v]) => `${k}=${v}`),
    });
    const list = await this.call('list containers', ENGINE_DEADLINES.quick, options, (s) =>
      this.docker.listContainers({ all: true, filters, abortSignal: s } as object),
    );
    return list.map((c) => ({
      id: c.Id,
      labels: c.Labels ?? {},
      state: c.State,
      image: c.Image,
    }));
  }

  async containerPids(id: string, options: CallOptions = {}): Promise<number | null> {
    // The host's cgroup file when the engine is on this machine (exact, instant); else
    // `top` (~20 ms, needs no free slot in the container) rather than `stats` (~1 s).
    const exact = await this.localCgroupPids(id, options);
    if (exact !== null) return exact;
    const top = (await this.call('list container processes', ENGINE_DEADLINES.quick, options, (s) =>
      this.docker.getContainer(id).top({ ps_args: '-o pid', abortSignal: s }),
    )) as { Processes?: unknown[] };
    return Array.isArray(top.Processes) ? top.Processes.length : null;
  }

  async cgroupPids(id: string, options: CallOptions = {}): Promise<number | null> {
    const exact = await this.localCgroupPids(id, options);
    if (exact !== null) return exact;
    const stats = (await this.call('container stats', ENGINE_DEADLINES.quick, options, (s) =>
      this.docker.getContainer(id).stats({
        stream: false,
        'one-shot': true,
        abortSignal: s,
      } as unknown as {
        stream: false;
      }),
    )) as { pids_stats?: { current?: number } };
    const current = stats.pids_stats?.current;
    return typeof current === 'number' ? current : null;
  }

  private async localCgroupPids(id: string, options: CallOptions): Promise<number | null> {
    if (!this.isLocal || process.platform !== 'linux') return null;
    return this.cgroups.read(id, async () => {
      const state = await this.inspectContainer(id, options);
      const pid = (state?.raw['State'] as { Pid?: unknown } | undefined)?.Pid;
      return typeof pid === 'number' && pid > 0 ? pid : null;
    });
  }

  async startExec(
    containerId: string,
    spec: ExecSpec,
    options: CallOptions = {},
  ): Promise<ExecStream> {
    const container = this.docker.getContainer(containerId);
    const exec = await this.call('create exec', ENGINE_DEADLINES.quick, options, (abortSignal) =>
      container.exec({
        Cmd: spec.cmd,
        AttachStdin: spec.attachStdin === true,
        AttachStdout: true,
        AttachStderr: true,
        Tty: false,
        ...(spec.user ? { User: spec.user } : {}),
        ...(spec.env ? { Env: spec.env } : {}),
        ...(spec.workingDir ? { WorkingDir: spec.workingDir } : {}),
        abortSignal,
      } as Docker.ExecCreateOptions),
    );
    const socket = (await this.call('start exec', ENGINE_DEADLINES.quick, options, () =>
      exec.start({ hijack: true, stdin: spec.attachStdin === true }),
    )) as Duplex;
    return new SocketExecStream(exec.id, socket, this.endpoint);
  }

  async inspectExec(execId: string, options: CallOptions = {}): Promise<ExecState> {
    const info = await this.call('inspect exec', ENGINE_DEADLINES.quick, options, (abortSignal) =>
      this.docker.getExec(execId).inspect({ abortSignal } as object),
    );
    return {
      isRunning: info.Running === true,
      exitCode: typeof info.ExitCode === 'number' ? info.ExitCode : null,
    };
  }

  async getArchive(containerId: string, path: string, options: CallOptions = {}): Promise<Buffer> {
    return this.call('read archive', ENGINE_DEADLINES.archive, options, async (abortSignal) => {
      const stream = (await this.docker
        .getContainer(containerId)
        .getArchive({ path, abortSignal } as { path: string })) as unknown as Readable;
      return collect(stream, abortSignal);
    });
  }

  async putArchive(
    containerId: string,
    path: string,
    tar: Buffer,
    options: CallOptions = {},
  ): Promise<void> {
    await this.call('write archive', ENGINE_DEADLINES.archive, options, async (abortSignal) => {
      const response = (await this.docker
        .getContainer(containerId)
        .putArchive(
          tar as unknown as string,
          { path, abortSignal } as { path: string },
        )) as unknown as Readable | undefined;
      if (response && typeof response.resume === 'function') await collect(response, abortSignal);
    });
  }

  /** Runs one call under its deadline, turning connection failures into advice. */
  private async call<T>(
    what: string,
    defaultMs: number,
    options: CallOptions,
    fn: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    try {
      return await withDeadline(
        what,
        this.endpoint,
        options.timeoutMs ?? defaultMs,
        options.signal,
        fn,
      );
    } catch (error) {
      const refused = this.refusal?.();
      if (refused) {
        throw new EngineUnavailableError(
          `The engine ${this.endpoint} was not trusted: ${refused}.`,
          { cause: error },
        );
      }
      const ssh = sshFailure(error, this.endpoint, this.agentSocket);
      if (ssh) throw ssh;
      if (isConnectError(error)) throw engineUnavailable(error, this.endpoint);
      throw error;
    }
  }
}

function collect(stream: Readable, signal: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const onAbort = () => stream.destroy(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      signal.removeEventListener('abort', onAbort);
      resolve(Buffer.concat(chunks));
    });
    stream.on('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      reject(error);
    });
  });
}
