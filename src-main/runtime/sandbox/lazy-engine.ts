/**
 * The Docker engine, loaded when it is first used. dockerode and its dependencies take
 * about 0.3 s and some 20 MiB to load; a run that never touches the sandbox (the toolcall
 * agent, a browser run) should not pay for them before its first event (issue 16 item 7).
 */
import type { ContainerEngine, ContainerSpec, ExecSpec, PullProgress, CallOptions } from './engine';
import type { DockerodeEngineOptions } from './dockerode-engine';

export class LazyDockerEngine implements ContainerEngine {
  private engine: Promise<ContainerEngine> | null = null;

  constructor(private readonly options: DockerodeEngineOptions = {}) {}

  private get(): Promise<ContainerEngine> {
    this.engine ??= import('./dockerode-engine').then(
      ({ DockerodeEngine }) => new DockerodeEngine(this.options),
    );
    return this.engine;
  }

  async ping(options?: CallOptions) {
    return (await this.get()).ping(options);
  }
  async capacity(options?: CallOptions) {
    return (await this.get()).capacity(options);
  }
  async hasImage(image: string, options?: CallOptions) {
    return (await this.get()).hasImage(image, options);
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
    return (await this.get()).listContainers(labels, options);
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
