/**
 * Whether an event stream said it was complete (issue 26 item 7). The SDK ends its
 * iteration the same way whether the server sent `data: [DONE]` or a proxy simply closed
 * the response half-way, so a cut reply used to be taken as the whole answer and the run
 * "finished". A reply is complete when it carries a `finish_reason` or its stream ends
 * with `[DONE]` (some servers send only one of the two); this file watches the bytes for
 * the second, since the SDK swallows it.
 */
type Fetch = typeof fetch;

const DONE = Buffer.from('data: [DONE]');
const DONE_TIGHT = Buffer.from('data:[DONE]');
/** bytes kept from the previous chunk so a marker split across two chunks is still seen */
const CARRY = DONE.length;

const doneSeen = new WeakSet<Response>();

/** True when the response's event stream carried the `[DONE]` marker at a line start. */
export function streamSaidDone(response: Response): boolean {
  return doneSeen.has(response);
}

/** Marks `response` as having carried `[DONE]` (for fetches that scan the bytes themselves). */
export function markStreamDone(response: Response): void {
  doneSeen.add(response);
}

/** Scans an event stream's chunks, in order, for the `[DONE]` marker at a line start. */
export class DoneMarkerScanner {
  seen = false;
  #carry = Buffer.from('\n');

  /** Feeds the next chunk; true once the marker has been seen. */
  feed(chunk: Uint8Array): boolean {
    if (this.seen) return true;
    const bytes = Buffer.concat([this.#carry, chunk]);
    this.seen = hasMarker(bytes);
    this.#carry = bytes.subarray(Math.max(0, bytes.length - CARRY - 1));
    return this.seen;
  }
}

/** A fetch whose event-stream responses are watched for `[DONE]` (streamSaidDone). */
export function watchStreamEnd(inner: Fetch): Fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (!response.body) return response;
    const type = response.headers.get('content-type') ?? '';
    // a stream without a content-type is read as one too (openai-llm.ts)
    if (type !== '' && !type.includes('event-stream')) return response;
    const scanner = new DoneMarkerScanner();
    const watched = new Response(
      response.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            if (!scanner.seen && scanner.feed(chunk)) doneSeen.add(watched);
            controller.enqueue(chunk);
          },
        }),
      ),
      { status: response.status, statusText: response.statusText, headers: response.headers },
    );
    return watched;
  };
}

/** `data: [DONE]` right after a newline (so a model's text quoting it does not count). */
function hasMarker(bytes: Buffer): boolean {
  for (const marker of [DONE, DONE_TIGHT]) {
    for (let at = bytes.indexOf(marker); at !== -1; at = bytes.indexOf(marker, at + 1)) {
      // at 0 the marker lies wholly in the carry: the previous chunk was checked for it
      const before = at === 0 ? 0 : bytes[at - 1];
      if (before === 0x0a || before === 0x0d) return true;
    }
  }
  return false;
}
