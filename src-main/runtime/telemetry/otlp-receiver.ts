/**
 * An OTLP/HTTP trace receiver (`POST /v1/traces`, protobuf or JSON) as a handler any Node
 * HTTP server mounts (`workbench serve`): the GenAI spans other tools send become
 * read-only runs of the history (spans-to-run.ts), one per trace, rewritten as more spans
 * of the trace arrive (an instrumented agent exports in batches while it runs). Loopback
 * clients only; with `isToken`, only with `Authorization: Bearer TOKEN`.
 *
 * What it holds is bounded: a request body over `maxBodyBytes` is refused with 413 (from
 * its Content-Length before reading, else once that much arrived; the rest is read and
 * dropped, a sender that goes on past twice the cap is cut off), and the spans kept to
 * rewrite a trace's run are at most `maxTraces` traces and `maxHeldSpans` spans: past
 * either, the traces updated longest ago are let go (their runs stay as written; spans of
 * such a trace that come later make a run of their own), counted in `stats` and warned.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RunHistory } from '../runs/run-history';
import { importRun } from '../runs/run-transfer';
import { decodeTraces } from './otlp-proto';
import { decodeTracesJson } from './otlp-json';
import { spansByTrace, traceToRunEvents, type ReceivedSpan } from './spans-to-run';

export const OTLP_TRACES_PATH = '/v1/traces';
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
export const DEFAULT_MAX_TRACES = 1_000;
export const DEFAULT_MAX_HELD_SPANS = 200_000;

export interface OtlpReceiverOptions {
  history: RunHistory;
  /** absent: no token needed (a receiver of its own on loopback) */
  isToken?: (given: string) => boolean;
  /** after a trace's run was written (the host tells its UIs) */
  onRun?: (runId: string) => void;
  path?: string;
  /** the largest request body taken (default 32 MiB) */
  maxBodyBytes?: number;
  /** traces held for assembling at once (default 1,000) */
  maxTraces?: number;
  /** spans held for assembling, over all traces (default 200,000) */
  maxHeldSpans?: number;
  /** where the warnings go (a trace let go, a body refused); default stderr */
  warn?: (message: string) => void;
}

export interface OtlpReceiverStats {
  /** traces let go before they ended (the bounds above) */
  evictedTraces: number;
  /** request bodies refused for their size (413) */
  refusedBodies: number;
}

export interface OtlpReceiver {
  readonly path: string;
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** the run each trace held now became */
  readonly runs: ReadonlyMap<string, string>;
  readonly stats: Readonly<OtlpReceiverStats>;
  /** spans held now, over all traces */
  readonly heldSpans: number;
}

export function createOtlpReceiver(options: OtlpReceiverOptions): OtlpReceiver {
  const path = options.path ?? OTLP_TRACES_PATH;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxTraces = options.maxTraces ?? DEFAULT_MAX_TRACES;
  const maxHeldSpans = options.maxHeldSpans ?? DEFAULT_MAX_HELD_SPANS;
  const warn = options.warn ?? ((message: string) => console.error(`[workbench] ${message}`));
  // insertion order is update order: the first entry is the trace updated longest ago
  const traces = new Map<string, Map<string, ReceivedSpan>>();
  const runIds = new Map<string, string>();
  const stats: OtlpReceiverStats = { evictedTraces: 0, refusedBodies: 0 };
  let heldSpans = 0;

  /** lets go of the oldest traces until the bounds hold (never `keep`, the one just written) */
  const evict = (keep: string) => {
    for (const [traceId, spans] of traces) {
      if (traces.size <= maxTraces && heldSpans <= maxHeldSpans) return;
      if (traceId === keep) continue;
      traces.delete(traceId);
      heldSpans -= spans.size;
      const runId = runIds.get(traceId);
      runIds.delete(traceId);
      stats.evictedTraces++;
      warn(
        `OTLP receiver: let go of trace ${traceId} (run ${runId ?? '?'}, ${spans.size} spans) to stay within ${maxTraces} traces and ${maxHeldSpans} spans held (${stats.evictedTraces} so far); its run stays as received, spans of it that come later make a run of their own`,
      );
    }
  };

  const accept = (contentType: string, body: Buffer): string[] => {
    const batches = contentType.includes('json')
      ? decodeTracesJson(body.toString('utf8'))
      : decodeTraces(body);
    const written: string[] = [];
    for (const [traceId, spans] of spansByTrace(batches)) {
      if (!/^[0-9a-f]{32}$/.test(traceId)) continue;
      const held = traces.get(traceId) ?? new Map<string, ReceivedSpan>();
      heldSpans -= held.size;
      for (const span of spans) held.set(span.spanId, span);
      heldSpans += held.size;
      traces.delete(traceId);
      traces.set(traceId, held);
      const all = [...held.values()];
      let runId = runIds.get(traceId);
      if (!runId) {
        const first = all.reduce((min, s) => (s.startNs < min ? s.startNs : min), all[0]!.startNs);
        runId = `${stamp(Number(first / 1_000_000n))}-${traceId.slice(0, 8)}`;
        runIds.set(traceId, runId);
      }
      const events = traceToRunEvents(runId, all);
      if (options.history.summary(runId)) options.history.remove(runId);
      importRun(
        options.history,
        `${events.map((e) => JSON.stringify(e)).join('\n')}\n`,
        `trace ${traceId}`,
      );
      written.push(runId);
      options.onRun?.(runId);
      evict(traceId);
    }
    return written;
  };

  return {
    path,
    runs: runIds,
    stats,
    get heldSpans() {
      return heldSpans;
    },
    handle(req, res) {
      const url = new URL(req.url ?? '/', 'http://placeholder');
      if (url.pathname !== path) return false;
      const address = req.socket.remoteAddress ?? '';
      if (!(address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'))) {
        answer(res, 403, 'The OTLP receiver answers loopback clients only.');
        return true;
      }
      if (options.isToken) {
        const match = /^Bearer\s+(\S+)$/i.exec(String(req.headers['authorization'] ?? ''));
        if (!match || !options.isToken(match[1]!)) {
          answer(res, 401, 'Missing or wrong token: send "Authorization: Bearer TOKEN".');
          return true;
        }
      }
      if (req.method !== 'POST') {
        answer(res, 405, 'POST the spans (OTLP/HTTP, protobuf or JSON).');
        return true;
      }
      const contentType = String(req.headers['content-type'] ?? 'application/x-protobuf');
      const tooLarge = () => {
        stats.refusedBodies++;
        const message = `The request body is larger than the receiver takes (${maxBody} bytes): send the spans in smaller batches (an OTel BatchSpanProcessor's maxExportBatchSize).`;
        warn(
          `OTLP receiver: refused a request body over ${maxBody} bytes (${stats.refusedBodies} so far)`,
        );
        res.setHeader('connection', 'close');
        answer(res, 413, message);
      };
      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBody) {
        tooLarge();
        req.resume();
        return true;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let isRefused = false;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (isRefused) {
          // read and dropped; a sender that goes on well past the cap is cut off
          if (size > 2 * maxBody) req.destroy();
          return;
        }
        if (size > maxBody) {
          isRefused = true;
          chunks.length = 0;
          tooLarge();
        } else chunks.push(chunk);
      });
      req.on('end', () => {
        if (isRefused) return;
        try {
          accept(contentType, Buffer.concat(chunks));
          if (contentType.includes('json')) {
            res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
          } else res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
        } catch (error) {
          answer(res, 400, `Not OTLP traces: ${(error as Error).message}`);
        }
      });
      return true;
    },
  };
}

function answer(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ message }));
}

function stamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\..+$/, '');
}
