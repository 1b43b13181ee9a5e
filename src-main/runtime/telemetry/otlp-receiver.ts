/**
 * An OTLP/HTTP trace receiver (`POST /v1/traces`, protobuf or JSON) as a handler any Node
 * HTTP server mounts (`workbench serve`): the GenAI spans other tools send become
 * read-only runs of the history (spans-to-run.ts), one per trace, rewritten as more spans
 * of the trace arrive (an instrumented agent exports in batches while it runs). Loopback
 * clients only; with `isToken`, only with `Authorization: Bearer TOKEN`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RunHistory } from '../runs/run-history';
import { importRun } from '../runs/run-transfer';
import { decodeTraces } from './otlp-proto';
import { decodeTracesJson } from './otlp-json';
import { spansByTrace, traceToRunEvents, type ReceivedSpan } from './spans-to-run';

export const OTLP_TRACES_PATH = '/v1/traces';
const MAX_BODY_BYTES = 32 * 1024 * 1024;

export interface OtlpReceiverOptions {
  history: RunHistory;
  /** absent: no token needed (a receiver of its own on loopback) */
  isToken?: (given: string) => boolean;
  /** after a trace's run was written (the host tells its UIs) */
  onRun?: (runId: string) => void;
  path?: string;
}

export interface OtlpReceiver {
  readonly path: string;
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** the run each trace received so far became */
  readonly runs: ReadonlyMap<string, string>;
}

export function createOtlpReceiver(options: OtlpReceiverOptions): OtlpReceiver {
  const path = options.path ?? OTLP_TRACES_PATH;
  const traces = new Map<string, Map<string, ReceivedSpan>>();
  const runIds = new Map<string, string>();

  const accept = (contentType: string, body: Buffer): string[] => {
    const batches = contentType.includes('json')
      ? decodeTracesJson(body.toString('utf8'))
      : decodeTraces(body);
    const written: string[] = [];
    for (const [traceId, spans] of spansByTrace(batches)) {
      if (!/^[0-9a-f]{32}$/.test(traceId)) continue;
      const held = traces.get(traceId) ?? new Map<string, ReceivedSpan>();
      for (const span of spans) held.set(span.spanId, span);
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
    }
    return written;
  };

  return {
    path,
    runs: runIds,
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
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) req.destroy();
        else chunks.push(chunk);
      });
      req.on('end', () => {
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
