/**
 * `telemetry:status` (docs/telemetry.md): live export's counts and the OTLP receiver this
 * host serves, for the top bar's telemetry badge, the same for the desktop app and `serve`.
 */
import type { TelemetryStatusView } from '@shared/domain/telemetry-status';
import type { Runtime } from '../runtime/runtime';
import type { OtlpReceiver } from '../runtime/telemetry/otlp-receiver';
import type { Handlers } from './contract';

export interface HostedReceiver {
  receiver: OtlpReceiver;
  /** where senders POST (`…/v1/traces`) */
  url: string;
  needsToken: boolean;
}

/** the OTLP receiver each runtime's host serves (set by the host that mounts one) */
const receivers = new WeakMap<Runtime, HostedReceiver>();

export function setHostedReceiver(runtime: Runtime, hosted: HostedReceiver | undefined): void {
  if (hosted) receivers.set(runtime, hosted);
  else receivers.delete(runtime);
}

export function telemetryStatus(runtime: Runtime): TelemetryStatusView {
  const live = runtime.telemetry;
  const hosted = receivers.get(runtime);
  return {
    ...(live
      ? {
          export: {
            endpoint: live.endpoint,
            exported: live.stats.exported,
            failures: live.stats.failures,
            dropped: live.stats.dropped,
            ...(live.stats.lastError !== undefined ? { lastError: live.stats.lastError } : {}),
          },
        }
      : {}),
    ...(hosted
      ? {
          receiver: {
            url: hosted.url,
            needsToken: hosted.needsToken,
            evictedTraces: hosted.receiver.stats.evictedTraces,
            refusedBodies: hosted.receiver.stats.refusedBodies,
          },
        }
      : {}),
  };
}

export function createTelemetryHandlers(runtime: Runtime): Pick<Handlers, 'telemetry:status'> {
  return { 'telemetry:status': async () => telemetryStatus(runtime) };
}
