/**
 * The renderer's WebSocket client when `workbench serve` is restarted (issue 25 item 9):
 * the new server makes a new token, so the old page can never get back in. It must learn
 * that from the server and stop, instead of retrying ("reconnecting…") forever.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createWsApi, type ConnectionEnd } from '../../src-renderer/api/ws-api';
import { createRuntime } from '../runtime/runtime';
import { cleanups, until } from './testing/ws-contract-fixture';
import { startWsHost } from './ws/ws-host';

async function serveOn(port: number, token?: string) {
  const runtime = createRuntime({ home: mkdtempSync(join(tmpdir(), 'wb-restart-')), env: {} });
  const host = await startWsHost({
    runtime,
    port,
    ...(token ? { token } : {}),
    context: { dockerProbe: async () => ({ isAvailable: false, error: 'not probed here' }) },
  });
  const stop = async () => {
    await host.close();
    await runtime.dispose();
  };
  cleanups.push(stop);
  return { host, stop };
}

function watch(api: ReturnType<typeof createWsApi>) {
  const seen: (boolean | ConnectionEnd)[] = [];
  api.onConnectionChange((connected) => seen.push(connected));
  api.onConnectionEnded((end) => seen.push(end));
  return seen;
}

describe('a page whose serve was restarted', () => {
  it('hears that its token is refused and stops retrying', async () => {
    const first = await serveOn(0);
    const port = first.host.port;
    const api = createWsApi(
      `ws://127.0.0.1:${port}/ws?token=${first.host.token}`,
      WebSocket as never,
      {
        // retries through the restart: a runtime takes a while to stop
        reconnectDelaysMs: Array<number>(100).fill(50),
      },
    );
    cleanups.push(() => api.close());
    const seen = watch(api);
    await api.getAppInfo({});
    expect(seen).toEqual([true]);

    await first.stop();
    const second = await serveOn(port); // a restart: same port, a new random token
    expect(second.host.token).not.toBe(first.host.token);
    await until(() => seen.includes('token-rejected'));
    // it stopped: no further attempt, no "connected", however long we wait
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen).toEqual([true, false, 'token-rejected']);
    await expect(api.getAppInfo({})).rejects.toThrow('Not connected to the workbench server');
  });

  it('with the same token (WORKBENCH_SERVE_TOKEN) it simply reconnects', async () => {
    const token = 'a-stable-token-0123456789';
    const first = await serveOn(0, token);
    const port = first.host.port;
    const api = createWsApi(`ws://127.0.0.1:${port}/ws?token=${token}`, WebSocket as never, {
      reconnectDelaysMs: Array<number>(100).fill(50),
    });
    cleanups.push(() => api.close());
    const seen = watch(api);
    await api.getAppInfo({});
    await first.stop();
    await serveOn(port, token);
    await until(() => seen.filter((s) => s === true).length === 2);
    expect(seen).toEqual([true, false, true]);
    expect(await api.getAppInfo({})).toMatchObject({ mode: 'browser' });
  });

  it('says it gave up when nothing answers through every delay', async () => {
    const first = await serveOn(0);
    const api = createWsApi(
      `ws://127.0.0.1:${first.host.port}/ws?token=${first.host.token}`,
      WebSocket as never,
      { reconnectDelaysMs: [10, 10, 10] },
    );
    cleanups.push(() => api.close());
    const seen = watch(api);
    await api.getAppInfo({});
    await first.stop();
    await until(() => seen.includes('gave-up'));
    expect(seen).toEqual([true, false, 'gave-up']);
  });
});
