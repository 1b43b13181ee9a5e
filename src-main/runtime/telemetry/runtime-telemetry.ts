/**
 * The runtime's side of live export: read `[telemetry]` once at start and, only when an
 * endpoint is set, load the exporter (a dynamic import: a runtime without telemetry loads
 * none of it) and give it every run event. Events published while it loads are kept and
 * handed over in order.
 */
import type { RunEvent } from '@shared/events';
import type { TelemetrySettings } from '../config/schema';
import type { ExportStats } from './otlp-exporter';
import type { LiveExport } from './live-export';

export interface RuntimeTelemetry {
  /** the traces URL spans go to */
  readonly endpoint: string;
  readonly stats: ExportStats;
  /** sends what is queued (bounded), before the process ends */
  shutdown(): Promise<void>;
}

export function startTelemetry(
  settings: TelemetrySettings | undefined,
  onEvent: (listener: (event: RunEvent) => void) => void,
  env: NodeJS.ProcessEnv,
  onFailure?: (stats: ExportStats, endpoint: string) => void,
): RuntimeTelemetry | undefined {
  const endpoint = settings?.otlp_endpoint;
  if (!endpoint) return undefined;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(settings.otlp_headers ?? {})) {
    const resolved = value.startsWith('env:') ? env[value.slice(4)] : value;
    if (resolved !== undefined) headers[name] = resolved;
  }
  let live: LiveExport | undefined;
  const pending: RunEvent[] = [];
  onEvent((event) => (live ? live.onEvent(event) : pending.push(event)));
  const ready = import('./live-export').then(({ createLiveExport }) => {
    live = createLiveExport({
      endpoint,
      headers,
      onFailure: (stats) => onFailure?.(stats, endpoint),
    });
    for (const event of pending.splice(0)) live.onEvent(event);
    return live;
  });
  const empty: ExportStats = { exported: 0, failures: 0, dropped: 0 };
  return {
    endpoint,
    get stats() {
      return live?.stats ?? empty;
    },
    async shutdown() {
      await (await ready).shutdown();
    },
  };
}
