/**
 * Live export's half on the thread that runs the agent loop: the run manager's listener
 * only keeps the JSON line the run history was written with (already made for each event),
 * and a timer hands the lines over to the export thread (export-worker.ts) in one message
 * every `intervalMs` (or every `batchLines` lines), and at once when a run finishes.
 * Parsing, span building, encoding and the network happen there. Counts come back by message (`stats`); `shutdown` sends
 * what is left and waits, bounded, for the thread to flush it.
 */
import { Worker } from 'node:worker_threads';
import type { RunEvent } from '@shared/events';
import type { ExportStats } from './otlp-exporter';
import type { ExportWorkerInit, FromExportWorker, ToExportWorker } from './export-worker-protocol';
import { exportWorkerEntry, type WorkerEntry } from './export-worker-entry';

export interface ExportClientOptions extends ExportWorkerInit {
  /** called on each failure (the host prints the first ones) */
  onFailure?: (stats: ExportStats) => void;
  /** how often lines go to the export thread (default 150 ms) */
  intervalMs?: number;
  /** lines handed over at once without waiting for the timer (default 512) */
  batchLines?: number;
  /** the thread's code (default: found by export-worker-entry.ts) */
  entry?: WorkerEntry;
}

export class ExportClient {
  readonly stats: ExportStats = { exported: 0, failures: 0, dropped: 0 };
  private lines: string[] = [];
  private timer: NodeJS.Timeout | null = null;
  private worker: Worker | null;
  /** events given up on this side (the thread's own drops are in its stats) */
  private droppedHere = 0;
  private flushed: (() => void) | null = null;
  private closing: Promise<void> | null = null;
  private readonly sendNow = () => this.send();
  private started: (() => void) | null = null;
  /** resolves when the thread has loaded its code (or is gone): lines sent before wait in
   * its port, so nothing needs it; tests and the bench wait for it to time runs alone */
  readonly ready = new Promise<void>((resolve) => (this.started = resolve));

  constructor(private readonly options: ExportClientOptions) {
    const entry = options.entry ?? exportWorkerEntry();
    const init: ExportWorkerInit = {
      endpoint: options.endpoint,
      headers: options.headers,
      ...(options.delayMs !== undefined ? { delayMs: options.delayMs } : {}),
    };
    const worker = new Worker(entry.script, { ...entry.options, workerData: init });
    // the export thread never keeps a CLI command alive (shutdown refs it while it flushes)
    worker.unref();
    worker.on('message', (message: FromExportWorker) => this.receive(message));
    worker.on('error', (error) => this.lost(`live export's thread failed: ${error.message}`));
    worker.on('exit', (code) => this.lost(`live export's thread stopped (exit code ${code})`));
    this.worker = worker;
  }

  /** The run manager's listener: one array push (and a timer per interval). */
  add(event: RunEvent, line: string): void {
    if (!this.worker) {
      this.drop(1);
      return;
    }
    this.lines.push(line);
    // A model that answers at once never lets a timer run during the run: the count keeps
    // the lines here bounded and the handover going all the same.
    if (event.type === 'run.finished' || this.lines.length >= (this.options.batchLines ?? 512)) {
      this.send();
    } else this.timer ??= setTimeout(this.sendNow, this.options.intervalMs ?? 150).unref();
  }

  /** Sends what is queued, then waits (at most `timeoutMs`) for the thread to export it. */
  shutdown(timeoutMs = 3_000): Promise<void> {
    this.closing ??= this.close(timeoutMs);
    return this.closing;
  }

  private async close(timeoutMs: number): Promise<void> {
    this.send();
    const worker = this.worker;
    if (!worker) return;
    worker.ref();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise<void>((resolve) => {
        this.flushed = resolve;
        this.post({ type: 'flush', timeoutMs });
      }),
      new Promise<void>((resolve) => worker.once('exit', () => resolve())),
      // the thread answers within timeoutMs; this bounds a thread that is stuck
      new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs + 1_000))),
    ]);
    clearTimeout(timer);
    this.worker = null;
    await worker.terminate();
  }

  private send(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.lines.length === 0 || !this.worker) return;
    const text = this.lines.join('\n');
    this.lines = [];
    this.post({ type: 'lines', text });
  }

  private post(message: ToExportWorker): void {
    this.worker?.postMessage(message);
  }

  private receive(message: FromExportWorker): void {
    if (message.type === 'ready') {
      this.started?.();
      return;
    }
    this.stats.exported = message.stats.exported;
    this.stats.failures = message.stats.failures;
    this.stats.dropped = message.stats.dropped + this.droppedHere;
    if (message.stats.lastError !== undefined) this.stats.lastError = message.stats.lastError;
    if (message.type === 'flushed') this.flushed?.();
    else if (message.failed) this.options.onFailure?.(this.stats);
  }

  private drop(count: number): void {
    this.droppedHere += count;
    this.stats.dropped += count;
  }

  /** The thread is gone (failed to load, crashed): counted once, its lines given up. */
  private lost(reason: string): void {
    this.started?.();
    if (!this.worker || this.closing) return;
    this.worker = null;
    this.stats.failures++;
    this.stats.lastError = reason;
    this.drop(this.lines.length);
    this.lines = [];
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.options.onFailure?.(this.stats);
  }
}
