/**
 * Bounds on what a model endpoint can make us hold (issue 12 item 5): a 50 MB reply was
 * accepted whole (104 MB of history, 700 MB RSS). Two caps:
 *
 * - on the wire, every response body is cut: an event stream at MAX_REPLY_BYTES (its
 *   line decoder buffers a line until its newline), any other body (a JSON reply, an
 *   error page), which the SDK buffers whole, at a quarter of that;
 * - the reply itself (text plus tool-call arguments) is refused past MAX_REPLY_CHARS,
 *   about a million tokens, the largest max_tokens the config accepts.
 */
import { LlmError } from './llm-errors';

export const MAX_REPLY_CHARS = 4 * 1024 * 1024;
/** Room for the event stream's framing (about 150 bytes per streamed piece) on top. */
export const MAX_REPLY_BYTES = 64 * 1024 * 1024;

/** The body of a response went past MAX_REPLY_BYTES (raised inside the body stream). */
export class ReplyTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`the response was larger than ${Math.round(limitBytes / (1024 * 1024))} MB`);
    this.name = 'ReplyTooLargeError';
  }
}

type Fetch = typeof fetch;

/**
 * A fetch whose response bodies end with ReplyTooLargeError past `limitBytes`. The
 * network read stops there (the source stream is cancelled), so nothing beyond the cap
 * is ever held.
 */
export function cappedFetch(streamLimitBytes = MAX_REPLY_BYTES, inner: Fetch = fetch): Fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (!response.body) return response;
    const isEventStream = (response.headers.get('content-type') ?? '').includes('event-stream');
    // A JSON reply is ~1 byte per character of content; an event stream adds its framing.
    const limitBytes = isEventStream ? streamLimitBytes : Math.ceil(streamLimitBytes / 4);
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > limitBytes) {
      await response.body.cancel().catch(() => undefined);
      throw new ReplyTooLargeError(limitBytes);
    }
    let seen = 0;
    const limited = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > limitBytes) controller.error(new ReplyTooLargeError(limitBytes));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(limited, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** The byte-cap error in `error` or its causes (SDKs wrap what a body stream throws). */
export function findReplyTooLarge(error: unknown): ReplyTooLargeError | null {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (e instanceof ReplyTooLargeError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/** The error a run sees: not retried (the same request would bring the same flood). */
export function replyTooLargeError(profileName: string, detail: string): LlmError {
  return new LlmError(
    'UNKNOWN',
    `The model's reply was refused: ${detail} (profile "${profileName}"). Nothing that large ` +
      'is a usable answer; it is not kept, to protect memory and the run history. Check the ' +
      'endpoint, or lower max_tokens.',
  );
}

/** Counts a streamed reply as it grows; `exceeded` turns true past MAX_REPLY_CHARS. */
export class ReplyBudget {
  private chars = 0;

  constructor(private readonly limit = MAX_REPLY_CHARS) {}

  add(piece: string | undefined): void {
    if (piece) this.chars += piece.length;
  }

  get exceeded(): boolean {
    return this.chars > this.limit;
  }

  get detail(): string {
    return `it passed ${this.limit} characters (text and tool-call arguments)`;
  }
}
