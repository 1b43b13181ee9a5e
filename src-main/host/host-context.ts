/**
 * What both transports share: the request handlers and the pushes. Run events are
 * batched a frame at a time; config and summary changes go out as they happen. The
 * transport only supplies a sink that fans a push out to its clients.
 */
import type { PushChannel, PushMap } from '@shared/ipc';
import type { Runtime } from '../runtime/runtime';
import { createHandlers, type Handlers } from './contract';
import { readAppVersion } from './app-version';
import { PushBatcher } from './push-batcher';
import { createDockerProbe, SandboxTracker, type DockerProbe } from './sandbox-status';
import { hostOtlpReceiver, type OtlpHosting } from './otlp-receiver-host';

export type PushSink = <C extends PushChannel>(channel: C, payload: PushMap[C]) => void;

export interface HostContextOptions {
  mode: 'desktop' | 'browser';
  version?: string;
  dockerProbe?: DockerProbe;
  /** run event batching interval (default one frame, 16 ms) */
  batchIntervalMs?: number;
  /** replaces the contract's handlers (tests) */
  handlers?: Handlers;
  /** the desktop app's native folder dialog (`dialog:pick-folder`) */
  pickFolder?: () => Promise<string | null>;
}

export interface HostContext {
  handlers: Handlers;
  /** the OTLP receiver: `[telemetry] receiver_port`'s, and one to mount (serve) */
  otlp: OtlpHosting;
  /** delivers pending run events now (before a shutdown) */
  flush(): void;
  dispose(): void;
}

export function createHostContext(
  runtime: Runtime,
  options: HostContextOptions,
  sink: PushSink,
): HostContext {
  const sandbox = new SandboxTracker(runtime);
  const batcher = new PushBatcher(
    (batch) => sink('run:events', batch),
    options.batchIntervalMs !== undefined ? { intervalMs: options.batchIntervalMs } : {},
  );
  const stopEvents = runtime.runs.onEvent((event) => batcher.push(event));
  const stopConfig = runtime.services.config.onChange((view) => sink('config:changed', view));
  const stopBatches = runtime.batches.onProgress((progress) => sink('batch:progress', progress));
  const stopWatching = runtime.services.config.watch();
  // OTLP traces from other tools become read-only runs (docs/telemetry.md); an open page
  // learns of each one (and of each rewrite as more spans arrive) like of an imported run
  const otlp = hostOtlpReceiver(runtime, (runId) => {
    const summary = runtime.runs.history.summary(runId);
    if (summary) sink('runs:changed', [summary]);
  });
  const handlers =
    options.handlers ??
    createHandlers(runtime, {
      mode: options.mode,
      version: options.version ?? readAppVersion(),
      sandbox,
      dockerProbe: options.dockerProbe ?? createDockerProbe(),
      onRunsChanged: (summaries) => sink('runs:changed', summaries),
      onRunsDeleted: (runIds) => sink('runs:deleted', runIds),
      onPlaygroundDelta: (delta) => sink('playground:delta', delta),
      ...(options.pickFolder ? { pickFolder: options.pickFolder } : {}),
    });
  return {
    handlers,
    otlp,
    flush: () => batcher.flush(),
    dispose() {
      stopEvents();
      stopConfig();
      stopBatches();
      stopWatching();
      batcher.dispose();
      sandbox.dispose();
      void otlp.close();
    },
  };
}
