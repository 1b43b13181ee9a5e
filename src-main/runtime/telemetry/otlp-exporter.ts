/**
 * Sends spans to an OTLP/HTTP receiver (protobuf, `POST …/v1/traces`), batched in the
 * background: `enqueue` only appends to a queue, so a run's step never waits for the
 * network. Failures are counted (and the last one kept) for the host to show; they never
 * reach the run. A receiver that stays down makes the queue drop its oldest spans past
 * `maxQueue` (counted too), so memory stays bounded.
 */
import type { Attributes, Span } from './otlp-model';
import { encodeTraces } from './otlp-proto';

export interface ExportStats {
  /** spans the receiver accepted */
  exported: number;
  /** requests that failed (refused, timed out, answered non-2xx) */
  failures: number;
  /** spans given up: in failed requests, or dropped from a full queue */
  dropped: number;
  lastError?: string;
}

export interface OtlpExporterOptions {
  /** the receiver: a base URL (`http://localhost:4318`) or the full `/v1/traces` URL */
  endpoint: string;
  resource: Attributes;
  headers?: Record<string, string>;
  /** spans per request (default 256) */
  batchSize?: number;
  /** how long spans wait for more to join their batch (default 500 ms) */
  delayMs?: number;
  /** spans kept while the receiver is slow or down (default 10,000) */
  maxQueue?: number;
  /** one request's limit (default 5 s) */
  timeoutMs?: number;
  /** called on each failure (the host prints the first ones) */
  onFailure?: (stats: ExportStats) => void;
  /** called after each request the receiver accepted (live export's thread reports it) */
  onExported?: (stats: ExportStats) => void;
}

/** The traces URL of an endpoint: `/v1/traces` added to a base URL, kept on a full one. */
export function tracesUrl(endpoint: string): string {
  const url = new URL(endpoint);
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/v1/traces';
  else if (!url.pathname.endsWith('/v1/traces')) {
    url.pathname = `${url.pathname.replace(/\/$/, '')}/v1/traces`;
  }
  return url.toString();
}

/** One request: the spans as protobuf; throws with the receiver's answer when it refuses. */
export async function postTraces(
  url: string,
  body: Uint8Array,
  options: { timeoutMs?: number; headers?: Record<string, string> } = {},
): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-protobuf', ...options.headers },
    body,
    signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
  });
  if (!response.ok) {
    const detail = (await response.text().catch(() => '')).slice(0, 200);
    throw new Error(`${url} answered ${response.status}${detail ? `: ${detail}` : ''}`);
  }
  await response.arrayBuffer().catch(() => undefined);
}

export class OtlpExporter {
  readonly url: string;
  readonly stats: ExportStats = { exported: 0, failures: 0, dropped: 0 };
  private queue: Span[] = [];
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> | null = null;

  constructor(private readonly options: OtlpExporterOptions) {
    this.url = tracesUrl(options.endpoint);
  }

  enqueue(spans: readonly Span[]): void {
    if (spans.length === 0) return;
    for (const span of spans) this.queue.push(span);
    const max = this.options.maxQueue ?? 10_000;
    if (this.queue.length > max) {
      const over = this.queue.length - max;
      this.queue.splice(0, over);
      this.stats.dropped += over;
    }
    if (this.queue.length >= (this.options.batchSize ?? 256)) this.kick();
    else this.timer ??= setTimeout(() => this.kick(), this.options.delayMs ?? 500).unref();
  }

  /** Sends everything queued; resolves when the queue is empty (or its sends failed). */
  async flush(): Promise<void> {
    while (this.queue.length > 0 || this.sending) {
      this.kick();
      await this.sending;
    }
  }

  private kick(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.sending || this.queue.length === 0) return;
    this.sending = this.sendAll().finally(() => {
      this.sending = null;
      if (this.queue.length > 0) this.enqueue([]);
      if (this.queue.length > 0) this.timer ??= setTimeout(() => this.kick(), 50).unref();
    });
  }

  private async sendAll(): Promise<void> {
    const size = this.options.batchSize ?? 256;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, size);
      try {
        await postTraces(this.url, encodeTraces(this.options.resource, batch), {
          ...(this.options.timeoutMs !== undefined ? { timeoutMs: this.options.timeoutMs } : {}),
          ...(this.options.headers ? { headers: this.options.headers } : {}),
        });
        this.stats.exported += batch.length;
        this.options.onExported?.(this.stats);
      } catch (error) {
        this.stats.failures++;
        this.stats.dropped += batch.length;
        this.stats.lastError = describe(error);
        this.options.onFailure?.(this.stats);
        return; // the rest waits for the next round instead of hammering a receiver that is down
      }
    }
  }
}

function describe(error: unknown): string {
  const e = error as Error & { cause?: { code?: string; message?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  return cause ? `${e.message} (${cause})` : e.message;
}
