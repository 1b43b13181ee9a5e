/**
 * The runtime's side of live export: read `[telemetry]` once at start and, only when an
 * endpoint is set, start the export thread (export-client.ts) and give it every run
 * event's JSON line. A runtime without telemetry starts no thread and loads none of it.
 */
import type { RunEvent } from '@shared/events';
import type { TelemetrySettings } from '../config/schema';
import type { ExportStats } from './otlp-exporter';
import { ExportClient } from './export-client';

export interface RuntimeTelemetry {
  /** the traces URL spans go to */
  readonly endpoint: string;
  readonly stats: ExportStats;
  /** the export thread has started (events before it wait for it, none are lost) */
  readonly ready: Promise<void>;
  /** sends what is queued (at most `timeoutMs`, default 3 s), before the process ends */
  shutdown(timeoutMs?: number): Promise<void>;
}

export function startTelemetry(
  settings: TelemetrySettings | undefined,
  onEvent: (listener: (event: RunEvent, line: string) => void) => void,
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
  const client = new ExportClient({
    endpoint,
    headers,
    onFailure: (stats) => onFailure?.(stats, endpoint),
  });
  onEvent((event, line) => client.add(event, line));
  return {
    endpoint,
    get stats() {
      return client.stats;
    },
    ready: client.ready,
    shutdown: (timeoutMs) => client.shutdown(timeoutMs),
  };
}
