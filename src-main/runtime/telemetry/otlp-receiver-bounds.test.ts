/**
 * The OTLP receiver's memory is bounded (docs/telemetry.md, "In: an OTLP receiver"): a
 * body over the cap is refused with 413 and a reason, whether it says its length or
 * streams it, and the receiver goes on; the traces held to rewrite their runs are at most
 * `maxTraces` traces and `maxHeldSpans` spans, the oldest let go with a counted warning,
 * their runs kept as received.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunStore } from '../runs/run-store';
import { startReceiverServer } from './testing/receiver-server';
import type { OtlpReceiverOptions } from './otlp-receiver';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(options: Omit<OtlpReceiverOptions, 'history' | 'isToken'>) {
  const store = new RunStore(mkdtempSync(join(tmpdir(), 'wb-otel-bounds-')));
  const warnings: string[] = [];
  const started = await startReceiverServer(store, undefined, {
    ...options,
    warn: (m) => warnings.push(m),
  });
  cleanups.push(async () => store.close());
  cleanups.push(() => started.close());
  return { ...started, store, warnings };
}

/** A trace of `spans` model-call spans (OTLP/JSON), trace id from `n`. */
function trace(n: number, spans = 1): string {
  const traceId = n.toString(16).padStart(32, '0');
  const start = 1_700_000_000_000_000_000n + BigInt(n) * 1_000_000_000n;
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'agent' } }] },
        scopeSpans: [
          {
            scope: { name: 'test' },
            spans: Array.from({ length: spans }, (_, i) => ({
              traceId,
              spanId: (n * 100 + i + 1).toString(16).padStart(16, '0'),
              name: 'chat m',
              kind: 3,
              startTimeUnixNano: String(start + BigInt(i) * 1_000_000n),
              endTimeUnixNano: String(start + BigInt(i) * 1_000_000n + 500_000n),
              attributes: [
                { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
                { key: 'gen_ai.request.model', value: { stringValue: 'm' } },
                { key: 'gen_ai.usage.input_tokens', value: { intValue: '3' } },
                { key: 'gen_ai.usage.output_tokens', value: { intValue: '2' } },
              ],
            })),
          },
        ],
      },
    ],
  });
}

const post = (url: string, body: string | ReadableStream<Uint8Array>, init: RequestInit = {}) =>
  fetch(`${url}/v1/traces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    ...init,
  });

describe('OTLP receiver bounds', () => {
  it('refuses a body over the cap with 413 and a reason, by its length or as it streams; then goes on', async () => {
    const r = await receiver({ maxBodyBytes: 4_096 });
    const big = await post(r.url, 'x'.repeat(10_000));
    expect(big.status).toBe(413);
    expect(((await big.json()) as { message: string }).message).toMatch(
      /larger than the receiver takes \(4096 bytes\): send the spans in smaller batches/,
    );
    // no Content-Length: refused once that much arrived
    const chunk = new TextEncoder().encode('y'.repeat(1_024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 6) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const streamed = await post(r.url, stream, { duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(r.receiver.stats.refusedBodies).toBe(2);
    expect(r.warnings.filter((w) => /refused a request body over 4096 bytes/.test(w))).toHaveLength(
      2,
    );
    // the receiver still takes a body within the cap
    const ok = await post(r.url, trace(1));
    expect(ok.status).toBe(200);
    expect(r.store.list()).toHaveLength(1);
  });

  it('holds at most maxTraces traces and maxHeldSpans spans: the oldest let go, counted and warned, its run kept', async () => {
    const r = await receiver({ maxTraces: 2, maxHeldSpans: 5 });
    for (const n of [1, 2, 3]) expect((await post(r.url, trace(n))).status).toBe(200);
    expect(r.receiver.stats.evictedTraces).toBe(1);
    expect([...r.receiver.runs.keys()].map((t) => Number.parseInt(t, 16))).toEqual([2, 3]);
    expect(r.warnings[0]).toMatch(
      /let go of trace 0+1 .*1 spans.*2 traces and 5 spans held \(1 so far\)/,
    );
    // every trace's run stays in the history
    expect(r.store.list()).toHaveLength(3);
    // a trace of 5 spans takes the place of both others (5 spans at most)
    expect((await post(r.url, trace(4, 5))).status).toBe(200);
    expect(r.receiver.heldSpans).toBeLessThanOrEqual(5);
    expect([...r.receiver.runs.keys()].map((t) => Number.parseInt(t, 16))).toEqual([4]);
    expect(r.receiver.stats.evictedTraces).toBe(3);
    // an update moves a trace to the back: 5 is let go before 4 is
    const r2 = await receiver({ maxTraces: 2 });
    for (const n of [4, 5]) await post(r2.url, trace(n));
    await post(r2.url, trace(4, 2));
    await post(r2.url, trace(6));
    expect([...r2.receiver.runs.keys()].map((t) => Number.parseInt(t, 16))).toEqual([4, 6]);
  });
});
