/**
 * Live export's work (`[telemetry] otlp_endpoint`, docs/telemetry.md): every run's events
 * are turned into spans and queued for the batching exporter. It runs on the export
 * thread (export-worker.ts), never on the thread that runs the agent loop.
 */
import type { RunEvent } from '@shared/events';
import { OtlpExporter, type ExportStats, type OtlpExporterOptions } from './otlp-exporter';
import { RunSpanBuilder, workbenchResource } from './run-spans';

export interface LiveExport {
  readonly stats: ExportStats;
  readonly url: string;
  /** the listener to give every run event to */
  onEvent(event: RunEvent): void;
  /** sends what is queued (at most `timeoutMs`) */
  shutdown(timeoutMs?: number): Promise<void>;
}

export function createLiveExport(options: Omit<OtlpExporterOptions, 'resource'>): LiveExport {
  const exporter = new OtlpExporter({ ...options, resource: workbenchResource() });
  const builders = new Map<string, RunSpanBuilder>();
  return {
    stats: exporter.stats,
    url: exporter.url,
    onEvent(event) {
      let builder = builders.get(event.runId);
      if (!builder) {
        builder = new RunSpanBuilder(event.runId);
        builders.set(event.runId, builder);
      }
      exporter.enqueue(builder.add(event));
      if (event.type === 'run.finished') builders.delete(event.runId);
    },
    async shutdown(timeoutMs = 3_000) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        exporter.flush(),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
      ]);
      clearTimeout(timer);
    },
  };
}
