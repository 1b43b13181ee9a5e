/**
 * The messages between live export's two halves (docs/telemetry.md): the run's thread
 * (export-client.ts) only hands over the JSON lines the run manager already made; the
 * export thread (export-worker.ts) parses them, builds the spans, encodes and sends them.
 */
import type { ExportStats } from './otlp-exporter';

/** what the export thread is started with (its `workerData`) */
export interface ExportWorkerInit {
  endpoint: string;
  headers: Record<string, string>;
  /** how long spans wait for more to join their batch (the exporter's default else) */
  delayMs?: number;
}

export type ToExportWorker =
  /** run events, the JSON lines the run history wrote, in publish order, joined by "\n"
   * (JSON.stringify escapes every newline inside a value); one string is copied to the
   * thread about three times faster than an array of hundreds of short ones */
  | { type: 'lines'; text: string }
  /** send what is queued (at most `timeoutMs`), then answer `flushed` */
  | { type: 'flush'; timeoutMs: number };

export type FromExportWorker =
  /** the thread has loaded its code and reads messages */
  | { type: 'ready' }
  /** the exporter's counts after a request (`failed`: that request failed) */
  | { type: 'stats'; stats: ExportStats; failed: boolean }
  | { type: 'flushed'; stats: ExportStats };
