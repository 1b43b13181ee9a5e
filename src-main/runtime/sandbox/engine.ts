/**
 * The container engine as the sandbox sees it: a small interface so the sandbox logic
 * does not depend on dockerode's shapes, and so a remote engine (DOCKER_HOST) or another
 * runtime can sit behind it. Every call takes a `CallOptions` with an abort signal and a
 * deadline: a hung daemon must never hang a run (reliability.md 2.2, "Hung daemon call").
 */

export interface CallOptions {
  signal?: AbortSignal;
  /** milliseconds; each implementation has a sensible default per call */
  timeoutMs?: number;
}

export interface EngineInfo {
  version: string;
  apiVersion: string;
  /** e.g. "1" or "2"; decides where the OOM counter lives */
  cgroupVersion?: string;
  /** unix:///var/run/docker.sock, tcp://host:2376, ... */
  endpoint: string;
  /** the engine runs on this machine, so bind paths are host paths we can prepare */
  isLocal: boolean;
}

/** What an engine's machine has, for spreading sandboxes over engines (`docker info`). */
export interface EngineCapacity {
  cpus: number;
  memoryBytes: number;
  /** every running container there, the app's or not: they all use the machine */
  runningContainers: number;
}

/** The subset of Docker's create body the sandbox uses; kept close to the Engine API. */
export interface ContainerSpec {
  name?: string;
  Image: string;
  User: string;
  WorkingDir: string;
  Entrypoint: string[];
  Cmd: string[];
  Env: string[];
  Labels: Record<string, string>;
  Hostname?: string;
  NetworkDisabled?: boolean;
  ExposedPorts?: Record<string, Record<string, never>>;
  HostConfig: {
    NetworkMode: string;
    Privileged: boolean;
    CapDrop: string[];
    CapAdd: string[];
    SecurityOpt: string[];
    ReadonlyRootfs: boolean;
    Tmpfs: Record<string, string>;
    Memory: number;
    MemorySwap: number;
    NanoCpus: number;
    PidsLimit: number;
    Init: boolean;
    IpcMode: string;
    Ulimits: { Name: string; Soft: number; Hard: number }[];
    Binds: string[];
    PortBindings: Record<string, unknown>;
    PublishAllPorts: boolean;
    AutoRemove: boolean;
    RestartPolicy: { Name: string };
  };
}

export interface ContainerSummary {
  id: string;
  labels: Record<string, string>;
  state: string;
  image: string;
}

export interface ContainerState {
  id: string;
  isRunning: boolean;
  status: string;
  exitCode: number;
  isOomKilled: boolean;
  labels: Record<string, string>;
  /** the raw inspect document, for policy assertions and diagnostics */
  raw: Record<string, unknown>;
}

export interface PullProgress {
  /** one human-readable line: "Downloading 3 of 5 layers, 41%" */
  text: string;
  /** 0..1 when the engine reports sizes */
  fraction?: number;
}

export interface ExecSpec {
  cmd: string[];
  user?: string;
  env?: string[];
  workingDir?: string;
  /** keep stdin open so the caller can write to it (persistent shell, code on stdin) */
  attachStdin?: boolean;
}

/** A running exec: raw stdout/stderr chunks as they arrive, stdin, and its end. */
export interface ExecStream {
  readonly id: string;
  onStdout(listener: (chunk: Buffer) => void): void;
  onStderr(listener: (chunk: Buffer) => void): void;
  /** resolves when the output stream ends; rejects when the connection breaks */
  readonly ended: Promise<void>;
  write(data: Buffer | string): void;
  /** half-closes stdin (the process sees EOF) */
  closeStdin(): void;
  /** drops the connection; the process keeps running unless it is killed */
  destroy(): void;
}

export interface ExecState {
  isRunning: boolean;
  exitCode: number | null;
}

export interface ImageSummary {
  /** `repo:tag` names; an image can have several */
  tags: string[];
  sizeBytes: number;
  /** milliseconds since the epoch */
  createdAt: number;
}

export interface ContainerEngine {
  /** answers with the engine's version, or throws an EngineUnavailableError */
  ping(options?: CallOptions): Promise<EngineInfo>;
  /** the engine machine's CPUs and memory, and how many containers run there now */
  capacity(options?: CallOptions): Promise<EngineCapacity>;
  hasImage(image: string, options?: CallOptions): Promise<boolean>;
  /** the tagged images on the engine (untagged layers left out) */
  listImages(options?: CallOptions): Promise<ImageSummary[]>;
  pullImage(
    image: string,
    onProgress: (progress: PullProgress) => void,
    options?: CallOptions,
  ): Promise<void>;
  createContainer(spec: ContainerSpec, options?: CallOptions): Promise<string>;
  startContainer(id: string, options?: CallOptions): Promise<void>;
  restartContainer(id: string, options?: CallOptions): Promise<void>;
  /** null when the container does not exist */
  inspectContainer(id: string, options?: CallOptions): Promise<ContainerState | null>;
  /** force-removes; a container that is already gone is not an error */
  removeContainer(id: string, options?: CallOptions): Promise<void>;
  listContainers(
    labels: Record<string, string>,
    options?: CallOptions,
  ): Promise<ContainerSummary[]>;
  /** current number of processes (a process listing: fast), or null when the engine does not say */
  containerPids(id: string, options?: CallOptions): Promise<number | null>;
  /** the pids cgroup's count, what the limit applies to (exact, but slow: ~0.8 s) */
  cgroupPids(id: string, options?: CallOptions): Promise<number | null>;
  startExec(containerId: string, spec: ExecSpec, options?: CallOptions): Promise<ExecStream>;
  inspectExec(execId: string, options?: CallOptions): Promise<ExecState>;
  /** a tar archive of `path` (file or folder) from the container */
  getArchive(containerId: string, path: string, options?: CallOptions): Promise<Buffer>;
  /** extracts a tar archive into the folder `path` of the container */
  putArchive(containerId: string, path: string, tar: Buffer, options?: CallOptions): Promise<void>;
}
