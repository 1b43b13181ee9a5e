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

/** Asks the engine for its version (DOCKER_HOST is honoured); answers are cached briefly. */
export function createDockerProbe(
  options: { timeoutMs?: number; cacheMs?: number } = {},
): DockerProbe {
  let cached: { at: number; state: Promise<DockerState> } | null = null;
  return () => {
    const now = Date.now();
    if (cached && now - cached.at < (options.cacheMs ?? 5000)) return cached.state;
    const docker = new Docker({ timeout: options.timeoutMs ?? 3000 });
    const state = docker.version().then(
      (v): DockerState => ({ isAvailable: true, version: v.Version }),
      (error: unknown): DockerState => ({
        isAvailable: false,
        error: `Docker is not available: ${(error as Error).message.split('\n')[0] ?? 'no answer'}`,
      }),
    );
    cached = { at: now, state };
    return state;
  };
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
