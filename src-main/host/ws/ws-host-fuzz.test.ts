/**
 * The WebSocket host under hostile input (issue 12 item 1): every malformed frame closes
 * only its own connection with the standard's code (or gets a typed error answer), and
 * the server keeps answering. Before the fix, `null` as a frame, a channel object whose
 * conversion throws, and 10 of 12 raw protocol violations killed the process.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../runtime/runtime';
import { rawConnect, textFrame } from './testing/raw-ws-client';
import { MALFORMED_CASES, randomFrame, seededRandom } from './testing/ws-fuzz';
import { startWsHost, type WsHost } from './ws-host';

let host: WsHost;
let runtime: Runtime;

beforeAll(async () => {
  runtime = createRuntime({ home: mkdtempSync(join(tmpdir(), 'wb-fuzz-')), env: {} });
  host = await startWsHost({
    runtime,
    context: { dockerProbe: async () => ({ isAvailable: false, error: 'not probed here' }) },
  });
});

afterAll(async () => {
  await host.close();
  await runtime.dispose();
});

const isResponse = (id: number) => (frame: unknown) =>
  (frame as { kind?: string; id?: number }).kind === 'response' &&
  (frame as { id?: number }).id === id;

/** A fresh, well-behaved connection gets its answer: the server is alive and serving. */
async function expectServing(): Promise<void> {
  const probe = await rawConnect(host.port, host.token);
  probe.write(
    textFrame(JSON.stringify({ kind: 'request', id: 1, channel: 'app:info', input: {} })),
  );
  expect(await probe.response(isResponse(1))).toMatchObject({ result: { ok: true } });
  probe.destroy();
}

describe('ws host under malformed frames', () => {
  it.each(MALFORMED_CASES)('$name', async ({ frames, expected }) => {
    const connection = await rawConnect(host.port, host.token);
    for (const frame of frames) connection.write(frame);
    if ('close' in expected) {
      expect(await connection.closeCode()).toBe(expected.close);
      await connection.closed();
    } else {
      expect(await connection.response(isResponse(expected.answers))).toMatchObject({
        result: { ok: false, error: { code: expect.any(String) } },
      });
      // The connection is still usable after a typed error.
      connection.write(
        textFrame(JSON.stringify({ kind: 'request', id: 99, channel: 'app:info', input: {} })),
      );
      expect(await connection.response(isResponse(99))).toMatchObject({ result: { ok: true } });
      connection.destroy();
    }
    await expectServing();
  });

  it('names an unknown channel without calling anything of the client', async () => {
    const connection = await rawConnect(host.port, host.token);
    connection.write(textFrame('{"kind":"request","id":3,"channel":{"toString":{}}}'));
    expect(await connection.response(isResponse(3))).toMatchObject({
      result: {
        ok: false,
        error: { code: 'not_found', message: 'Unknown request channel: (a object)' },
      },
    });
    connection.destroy();
  });

  it('survives a bounded random-bytes fuzz (1,500 frames, seeded) and keeps serving', async () => {
    const random = seededRandom(12);
    let sent = 0;
    while (sent < 1_500) {
      const connection = await rawConnect(host.port, host.token);
      const burst = 1 + Math.floor(random() * 12);
      for (let i = 0; i < burst; i++) connection.write(randomFrame(random));
      sent += burst;
      // Half the time hang up at once, half the time let the server finish with it.
      if (random() < 0.5) connection.destroy();
      else {
        connection.socket.end();
        await connection.closed(10_000);
      }
    }
    await expectServing();
  }, 120_000);
});
