/**
 * The export thread of live export (a `worker_threads` Worker started by export-client.ts;
 * built as its own entry, out/main/otlp-export-worker.js). Everything live export costs
 * besides handing over a line runs here, off the thread that runs the agent loop: parsing
 * the events, building spans (RunSpanBuilder), protobuf encoding and the network. Counts
 * go back by message so `telemetry:status` and the failure report stay as they were.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { RunEvent } from '@shared/events';
import type { ExportStats } from './otlp-exporter';
import type { ExportWorkerInit, FromExportWorker, ToExportWorker } from './export-worker-protocol';
import { createLiveExport } from './live-export';

const port = parentPort;
if (!port) throw new Error('export-worker.ts runs as a worker thread (export-client.ts)');
yieldToTheRun();
const init = workerData as ExportWorkerInit;
const post = (message: FromExportWorker) => port.postMessage(message);
const copy = (stats: ExportStats): ExportStats => ({ ...stats });

const live = createLiveExport({
  endpoint: init.endpoint,
  headers: init.headers,
  ...(init.delayMs !== undefined ? { delayMs: init.delayMs } : {}),
  onFailure: (stats) => post({ type: 'stats', stats: copy(stats), failed: true }),
  onExported: (stats) => post({ type: 'stats', stats: copy(stats), failed: false }),
});

port.on('message', (message: ToExportWorker) => {
  if (message.type === 'lines') {
    for (const line of message.text.split('\n')) {
      try {
        live.onEvent(JSON.parse(line) as RunEvent);
      } catch (error) {
        // one event the span builder cannot read must not stop the export of the others
        live.stats.lastError = `an event was not exported: ${(error as Error).message}`;
      }
    }
  } else {
    void live.shutdown(message.timeoutMs).then(() => {
      post({ type: 'flushed', stats: copy(live.stats) });
    });
  }
});
post({ type: 'ready' });

/**
 * On Linux, this thread alone at the lowest priority (nice 19: setpriority on a thread id
 * touches that thread only). The process's threads share its CPU (one autogroup per
 * session); on a machine with no idle core the export's work would otherwise be taken
 * from the run's thread. The spans wait instead: they are sent while a model answers.
 * Elsewhere the thread keeps the process's priority.
 */
function yieldToTheRun(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid !== process.pid) setPriority(tid, 19);
  } catch {
    // no /proc/thread-self (not Linux), or not allowed: the default priority
  }
}
