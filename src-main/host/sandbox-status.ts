/**
 * What `sandbox:status` answers: whether a Docker engine answers (probed with a short
 * timeout and cached, so a hung daemon never hangs the UI), the sandbox settings from
 * config.toml, and each session's container as its runs last reported it through
 * `sandbox.changed` events.
 */
import Docker from 'dockerode';
import type { RunEvent, SandboxStatus } from '@shared/events';
import type { SandboxStatusView } from '@shared/ipc';
import type { Runtime } from '../runtime/runtime';
import { sandboxSchema, type SandboxSettings } from '../runtime/config/schema';

export interface DockerState {
  isAvailable: boolean;
  version?: string;
  error?: string;
}

export type DockerProbe = () => Promise<DockerState>;

/**
 * Asks the engine for its version and for one container (DOCKER_HOST is honoured);
 * answers are cached briefly. Both must answer within the timeout: an engine can still
 * serve `/version` while container calls hang (a daemon stuck on a container lock, e.g.
 * behind a fork-bombed sandbox), and such an engine cannot run a sandbox (issue 12 item 10).
 */
export function createDockerProbe(
  options: { timeoutMs?: number; cacheMs?: number; connection?: Docker.DockerOptions } = {},
): DockerProbe {
  let cached: { at: number; state: Promise<DockerState> } | null = null;
  const timeoutMs = options.timeoutMs ?? 3000;
  return () => {
    const now = Date.now();
    if (cached && now - cached.at < (options.cacheMs ?? 5000)) return cached.state;
    const docker = new Docker({ ...options.connection, timeout: timeoutMs });
    const state = probeEngine(docker, timeoutMs);
    cached = { at: now, state };
    return state;
  };
}

async function probeEngine(docker: Docker, timeoutMs: number): Promise<DockerState> {
  const firstLine = (error: unknown) => (error as Error).message.split('\n')[0] || 'no answer';
  let version: string;
  try {
    version = (await docker.version()).Version;
  } catch (error) {
    return { isAvailable: false, error: `Docker is not available: ${firstLine(error)}` };
  }
  try {
    await docker.listContainers({ limit: 1 });
  } catch (error) {
    return {
      isAvailable: false,
      version,
      error:
        `Docker ${version} answers but does not handle container requests ` +
        `(no answer within ${timeoutMs / 1000} s: ${firstLine(error)}); the engine seems stuck. ` +
        'Restarting Docker usually helps.',
    };
  }
  return { isAvailable: true, version };
}

interface SessionSandbox {
  status: SandboxStatus;
  containerId?: string;
  image: string;
  error?: string;
}

export class SandboxTracker {
  private readonly sessionOfRun = new Map<string, string>();
  private readonly sessions = new Map<string, SessionSandbox>();
  private readonly unsubscribe: () => void;

  constructor(private readonly runtime: Runtime) {
    this.unsubscribe = runtime.runs.onEvent((event) => this.onEvent(event));
  }

  async status(sessionId: string, probe: DockerProbe): Promise<SandboxStatusView> {
    let settings: SandboxSettings;
    try {
      settings = this.runtime.services.loadConfig().sandbox;
    } catch {
      // A broken config.toml is reported by config:get; the status still answers.
      settings = sandboxSchema.parse({});
    }
    const session = this.sessions.get(sessionId);
    return {
      docker: await probe(),
      useSandbox: settings.use_sandbox,
      image: session?.image ?? settings.image,
      limits: {
        memory: settings.memory_limit,
        cpus: settings.cpu_limit,
        pids: settings.pids_limit,
        timeoutSeconds: settings.timeout,
        isNetworkEnabled: settings.network_enabled,
      },
      sessionId,
      status: session?.status ?? 'none',
      ...(session?.containerId ? { containerId: session.containerId } : {}),
      ...(session?.error ? { error: session.error } : {}),
    };
  }

  dispose(): void {
    this.unsubscribe();
  }

  private onEvent(event: RunEvent): void {
    if (event.type === 'run.started') this.sessionOfRun.set(event.runId, event.sessionId);
    else if (event.type === 'sandbox.changed') {
      const sessionId = this.sessionOfRun.get(event.runId);
      if (!sessionId) return;
      this.sessions.set(sessionId, {
        status: event.status,
        image: event.image,
        ...(event.containerId ? { containerId: event.containerId } : {}),
        ...(event.error ? { error: event.error } : {}),
      });
    } else if (event.type === 'run.finished') this.sessionOfRun.delete(event.runId);
  }
}
