/**
 * The Docker engine, loaded when it is first used. dockerode and its dependencies
 * (docker-modem, ssh2, @grpc/grpc-js, protobufjs) take about 0.3 s and some 20 MiB to load;
 * a run that never touches the sandbox (the toolcall agent, a browser run) should not pay
 * for them before its first event (issue 16 item 7), and the pre-flight of one that will
 * (ping, is the image there) and the orphan sweep's listing ask a local engine's socket
 * directly (socket-probe.ts), so they load when a container is created or removed, not
 * before the first model request (issue 27).
 */
import type { ContainerEngine, ContainerSpec, ExecSpec, PullProgress, CallOptions } from './engine';
import type { DockerodeEngineOptions } from './engine-connection';
import {
  hasImageOverSocket,
  listContainersOverSocket,
  pingOverSocket,
  socketTargetOf,
  type SocketTarget,
} from './socket-probe';

export class LazyDockerEngine implements ContainerEngine {
  private engine: Promise<ContainerEngine> | null = null;
  /** undefined: not resolved yet; null: not a local socket (dockerode answers) */
  private socket: SocketTarget | null | undefined;

  constructor(private readonly options: DockerodeEngineOptions = {}) {}

  /** The local socket to probe before dockerode is loaded; once it is, dockerode answers. */
  private probeTarget(): SocketTarget | null {
    if (this.engine) return null;
    if (this.socket === undefined) {
      try {
        this.socket = socketTargetOf(this.options);
      } catch {
        this.socket = null; // a bad address: dockerode's constructor says why
      }
    }
    return this.socket;
  }

  private get(): Promise<ContainerEngine> {
    this.engine ??= import('./dockerode-engine').then(
      ({ DockerodeEngine }) => new DockerodeEngine(this.options),
    );
    return this.engine;
  }

  async ping(options?: CallOptions) {
    const target = this.probeTarget();
    const info = target && (await pingOverSocket(target, options?.signal, options?.timeoutMs));
    return info ?? (await this.get()).ping(options);
  }
  async capacity(options?: CallOptions) {
    return (await this.get()).capacity(options);
  }
  async hasImage(image: string, options?: CallOptions) {
    const target = this.probeTarget();
    const has =
      target && (await hasImageOverSocket(target, image, options?.signal, options?.timeoutMs));
    return has ?? (await this.get()).hasImage(image, options);
  }
  async listImages(options?: CallOptions) {
    return (await this.get()).listImages(options);
  }
  async pullImage(image: string, onProgress: (p: PullProgress) => void, options?: CallOptions) {
    return (await this.get()).pullImage(image, onProgress, options);
  }
  async createContainer(spec: ContainerSpec, options?: CallOptions) {
    return (await this.get()).createContainer(spec, options);
  }
  async startContainer(id: string, options?: CallOptions) {
    return (await this.get()).startContainer(id, options);
  }
  async restartContainer(id: string, options?: CallOptions) {
    return (await this.get()).restartContainer(id, options);
  }
  async inspectContainer(id: string, options?: CallOptions) {
    return (await this.get()).inspectContainer(id, options);
  }
  async removeContainer(id: string, options?: CallOptions) {
    return (await this.get()).removeContainer(id, options);
  }
  async listContainers(labels: Record<string, string>, options?: CallOptions) {
    // the orphan sweep at every start: most find nothing to remove, and load nothing
    const target = this.probeTarget();
    const list =
      target &&
      (await listContainersOverSocket(target, labels, options?.signal, options?.timeoutMs));
    return list ?? (await this.get()).listContainers(labels, options);
  }
  async containerPids(id: string, options?: CallOptions) {
    return (await this.get()).containerPids(id, options);
  }
  async cgroupPids(id: string, options?: CallOptions) {
    return (await this.get()).cgroupPids(id, options);
  }
  async startExec(containerId: string, spec: ExecSpec, options?: CallOptions) {
    return (await this.get()).startExec(containerId, spec, options);
  }
  async inspectExec(execId: string, options?: CallOptions) {
    return (await this.get()).inspectExec(execId, options);
  }
  async getArchive(containerId: string, path: string, options?: CallOptions) {
    return (await this.get()).getArchive(containerId, path, options);
  }
  async putArchive(containerId: string, path: string, tar: Buffer, options?: CallOptions) {
    return (await this.get()).putArchive(containerId, path, tar, options);
  }
}
