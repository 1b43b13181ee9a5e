/**
 * The fetch the `openai` SDK is given (issue 27, the model call): node:http(s) on a
 * keep-alive agent, the request body written as one buffer, and the reply caps
 * (reply-limits.ts) and the `[DONE]` watch (stream-end.ts) applied as the bytes arrive.
 *
 * Node's global fetch (undici) cost a local step about 0.5 ms more than a raw keep-alive
 * POST of the same body: a Request and its signals per call, the body written from an
 * iterable, and each reply piped through two web TransformStreams of ours before the SDK
 * read it through a third (docs/performance.md). Here a JSON reply is read whole on the
 * node side and handed over as one buffer; an event stream gets one ReadableStream fed by
 * the socket.
 *
 * What a user sees stays as it was with fetch: redirects are followed (by handing the
 * request to the fetch below), gzip/deflate/br replies are decoded, the Fetch standard's
 * "bad ports" are refused with fetch's own error (so a run and Test connection say the
 * same thing, util/connection-cause.ts), an abort rejects with the signal's reason, and a
 * body cut short fails with fetch's `TypeError: terminated`. Anything else than a plain
 * string or bytes body over http(s) also goes to the fetch below.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { MAX_REPLY_BYTES, ReplyTooLargeError } from './reply-limits';
import { DoneMarkerScanner, markStreamDone } from './stream-end';

type Fetch = typeof fetch;

/** Idle sockets are closed after this (undici's default keep-alive timeout). */
const IDLE_SOCKET_MS = 4_000;

/** The Fetch standard's bad ports: fetch refuses them, and so do we (by asking fetch). */
const BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102,
  103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465,
  512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993,
  995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668,
  6669, 6679, 6697, 10080,
]);

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);

let httpAgent: HttpAgent | undefined;
let httpsAgent: HttpsAgent | undefined;

function agentFor(protocol: string): HttpAgent {
  if (protocol === 'https:') {
    return (httpsAgent ??= new HttpsAgent({
      keepAlive: true,
      timeout: IDLE_SOCKET_MS,
      scheduling: 'lifo',
    }));
  }
  return (httpAgent ??= new HttpAgent({
    keepAlive: true,
    timeout: IDLE_SOCKET_MS,
    scheduling: 'lifo',
  }));
}

/** The body as one buffer, or null when it is something only fetch knows how to send. */
function bodyBytes(body: RequestInit['body']): Buffer | undefined | null {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.length);
  return null;
}

function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  // the SDK hands a Headers: read as is, not copied first
  (headers instanceof Headers ? headers : new Headers(headers)).forEach(
    (value, name) => (out[name] = value),
  );
  return out;
}

/**
 * A whole reply already in memory: json() and text() read the buffer directly instead of
 * through the web stream a Response wraps its body in (about a third of the fetch's cost
 * on a small reply). `body` is still there, made when asked for. Own properties rather
 * than a subclass: the DOM typings declare Response's methods as properties.
 */
function bufferedResponse(bytes: Buffer, init: ResponseInit): Response {
  const response = new Response(null, init);
  let stream: ReadableStream<Uint8Array> | null = null;
  let used = false;
  const isUsed = () => used || (stream?.locked ?? false);
  const take = async (): Promise<Buffer> => {
    if (isUsed()) throw new TypeError('Body is unusable: Body has already been read');
    used = true;
    return bytes;
  };
  const text = async () => (await take()).toString('utf8');
  return Object.defineProperties(response, {
    body: { get: () => (stream ??= new Response(bytes).body!) },
    bodyUsed: { get: isUsed },
    text: { value: text },
    json: { value: async () => JSON.parse(await text()) as unknown },
    arrayBuffer: {
      value: async () => {
        const b = await take();
        return b.buffer.slice(b.byteOffset, b.byteOffset + b.length);
      },
    },
    bytes: { value: async () => new Uint8Array(await take()) },
    blob: { value: async () => new Blob([await take()]) },
    clone: {
      value: () => {
        if (isUsed()) throw new TypeError('Response.clone: Body has already been consumed.');
        return bufferedResponse(bytes, init);
      },
    },
  });
}

function responseHeaders(res: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // a header fetch would refuse too (invalid characters): dropped
    }
  }
  return headers;
}

/** The decoded body, as fetch decodes it (content-encoding gzip, deflate, br). */
function decoded(res: IncomingMessage): Readable {
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : null;
  if (!decoder) return res;
  res.on('error', (error) => decoder.destroy(error));
  return res.pipe(decoder);
}

/** fetch's error for a body cut short. */
function terminated(cause: unknown): TypeError {
  return new TypeError('terminated', { cause });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/**
 * A fetch for the SDK: node:http(s) with keep-alive, replies capped at `streamLimitBytes`
 * (an event stream) or a quarter of it (any other body), event streams watched for
 * `[DONE]`. `fallback` gets whatever this one does not handle itself.
 */
export function keepAliveFetch(streamLimitBytes = MAX_REPLY_BYTES, fallback: Fetch = fetch): Fetch {
  return (input, init) => {
    const url = input instanceof Request ? null : new URL(input instanceof URL ? input : input);
    const body = bodyBytes(init?.body);
    const port = url ? Number(url.port || (url.protocol === 'https:' ? 443 : 80)) : 0;
    if (
      !url ||
      (url.protocol !== 'http:' && url.protocol !== 'https:') ||
      body === null ||
      BAD_PORTS.has(port)
    ) {
      return fallback(input, init);
    }
    return send(url, body, init ?? {}, streamLimitBytes, () => fallback(input, init));
  };
}

function send(
  url: URL,
  body: Buffer | undefined,
  init: RequestInit,
  streamLimitBytes: number,
  viaFallback: () => Promise<Response>,
): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  const headers = headerRecord(init.headers);
  headers['accept'] ??= '*/*';
  headers['accept-encoding'] ??= 'gzip, deflate, br';
  if (body) headers['content-length'] = String(body.length);
  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    /** errors the body once the response was handed over (an event stream) */
    let failBody: ((error: unknown) => void) | null = null;
    const onAbort = () => {
      const reason = abortReason(signal!);
      req.destroy();
      if (!settled) finish(() => reject(reason));
      else failBody?.(reason);
    };
    const finish = (then: () => void) => {
      if (settled) return;
      settled = true;
      then();
    };
    const cleanUp = () => signal?.removeEventListener('abort', onAbort);
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(url, {
      method: init.method ?? 'GET',
      headers,
      agent: agentFor(url.protocol),
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error) => {
      cleanUp();
      if (!settled) finish(() => reject(error));
      else failBody?.(terminated(error));
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (REDIRECT_STATUS.has(status) && res.headers.location) {
        // fetch follows redirects with its own rules (method and body changes): let it
        res.resume();
        cleanUp();
        finish(() => viaFallback().then(resolve, reject));
        return;
      }
      const responseInit = {
        status,
        statusText: res.statusMessage ?? '',
        headers: responseHeaders(res),
      };
      if (NULL_BODY_STATUS.has(status)) {
        res.resume();
        cleanUp();
        finish(() => resolve(new Response(null, responseInit)));
        return;
      }
      const type = res.headers['content-type'] ?? '';
      const isEventStream = type.includes('event-stream');
      const limitBytes = isEventStream ? streamLimitBytes : Math.ceil(streamLimitBytes / 4);
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > limitBytes) {
        req.destroy();
        cleanUp();
        finish(() => reject(new ReplyTooLargeError(limitBytes)));
        return;
      }
      const source = decoded(res);
      // a stream without a content-type is read as one (openai-llm.ts, stream-end.ts)
      if (type === '' || isEventStream) {
        const { stream, fail } = eventStream(source, limitBytes, () => req.destroy(), cleanUp);
        failBody = fail;
        const response = new Response(stream.body, responseInit);
        stream.onDone = () => markStreamDone(response);
        finish(() => resolve(response));
        return;
      }
      readWhole(source, limitBytes, (outcome) => {
        cleanUp();
        if (outcome.tooLarge) req.destroy();
        const { body: whole } = outcome;
        finish(() =>
          resolve(
            whole instanceof Buffer
              ? bufferedResponse(whole, responseInit)
              : new Response(whole, responseInit),
          ),
        );
      });
    });
    req.end(body);
  });
}

interface WholeBody {
  body: Buffer | ReadableStream<Uint8Array>;
  tooLarge: boolean;
}

/**
 * Reads a (non-stream) body whole. A failure (a cut connection, the cap) is handed over
 * as a body that fails when read, as fetch's body would.
 */
function readWhole(source: Readable, limitBytes: number, done: (outcome: WholeBody) => void): void {
  const chunks: Buffer[] = [];
  let seen = 0;
  let over = false;
  const failing = (error: unknown): ReadableStream<Uint8Array> =>
    new ReadableStream({ start: (controller) => controller.error(error) });
  source.on('data', (chunk: Buffer) => {
    if (over) return;
    seen += chunk.length;
    if (seen > limitBytes) {
      over = true;
      source.destroy();
      done({ body: failing(new ReplyTooLargeError(limitBytes)), tooLarge: true });
      return;
    }
    chunks.push(chunk);
  });
  source.on('end', () => {
    if (!over) done({ body: Buffer.concat(chunks, seen), tooLarge: false });
  });
  source.on('error', (error) => {
    if (!over) done({ body: failing(terminated(error)), tooLarge: false });
  });
  source.on('close', () => {
    if (!over && !source.readableEnded) done({ body: failing(terminated(null)), tooLarge: false });
  });
}

interface WatchedStream {
  body: ReadableStream<Uint8Array>;
  /** called once when the `[DONE]` marker went by */
  onDone: () => void;
}

/** An event stream fed by the socket: capped, watched for `[DONE]`, paused when unread. */
function eventStream(
  source: Readable,
  limitBytes: number,
  stop: () => void,
  cleanUp: () => void,
): { stream: WatchedStream; fail: (error: unknown) => void } {
  const scanner = new DoneMarkerScanner();
  let seen = 0;
  let closed = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const fail = (error: unknown) => {
    if (closed) return;
    closed = true;
    cleanUp();
    stop();
    controller.error(error);
  };
  const stream: WatchedStream = {
    onDone: () => undefined,
    body: new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
        source.on('data', (chunk: Buffer) => {
          if (closed) return;
          seen += chunk.length;
          if (seen > limitBytes) return fail(new ReplyTooLargeError(limitBytes));
          if (!scanner.seen && scanner.feed(chunk)) stream.onDone();
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
          if ((controller.desiredSize ?? 1) <= 0) source.pause();
        });
        source.on('end', () => {
          if (closed) return;
          closed = true;
          cleanUp();
          controller.close();
        });
        source.on('error', (error) => fail(terminated(error)));
        source.on('close', () => {
          if (!source.readableEnded) fail(terminated(null));
        });
      },
      pull() {
        source.resume();
      },
      cancel() {
        closed = true;
        cleanUp();
        stop();
      },
    }),
  };
  return { stream, fail };
}
