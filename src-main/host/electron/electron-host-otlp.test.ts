/**
 * The desktop app takes OTLP traces like `serve` (docs/telemetry.md): with
 * `[telemetry] receiver_port`, the Electron host (Electron itself mocked) listens on
 * 127.0.0.1:PORT/v1/traces, behind `receiver_token` when set; a trace becomes a read-only
 * run of the history, the window is told (`runs:changed`), and `telemetry:status` names
 * the receiver. Without the key it opens no port.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IpcMainInvokeEvent } from 'electron';
import { afterEach, describe, expect, it } from 'vitest';
import type { IpcResult, RunSummary, TelemetryStatusView } from '@shared/ipc';
import { FakeWebContents } from '../../electron/testing/electron-mock';
import { createRuntime, type Runtime } from '../../runtime/runtime';
import { testRunFactory } from '../testing/test-runs';
import { startElectronHost, type ElectronHost, type IpcMainLike } from './electron-host';

type Handler = (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown;
const APP = 'app://workbench';

let runtime: Runtime | undefined;
let host: ElectronHost | undefined;
afterEach(async () => {
  host?.dispose();
  await runtime?.dispose();
  host = undefined;
  runtime = undefined;
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

async function startDesktop(config: string) {
  const home = mkdtempSync(join(tmpdir(), 'wb-eh-otlp-'));
  writeFileSync(join(home, 'config.toml'), config);
  const handlers = new Map<string, Handler>();
  const ipc: IpcMainLike = {
    handle: (channel, listener) => void handlers.set(channel, listener),
    removeHandler: (channel) => void handlers.delete(channel),
  };
  const rt: Runtime = createRuntime({ home, factory: testRunFactory(() => rt), env: {} });
  runtime = rt;
  host = startElectronHost({
    runtime: rt,
    ipcMain: ipc,
    allowedOrigins: [APP],
    context: { dockerProbe: async () => ({ isAvailable: false }) },
  });
  const window = new FakeWebContents();
  host.attach(window as never);
  const status = async () => {
    const answer = (await handlers.get('telemetry:status')!(
      { senderFrame: { url: `${APP}/index.html` } } as unknown as IpcMainInvokeEvent,
      {},
    )) as IpcResult<TelemetryStatusView>;
    if (!answer.ok) throw new Error(answer.error.message);
    return answer.value;
  };
  return { runtime: rt, window, status };
}

/** One model-call span of a trace, as OTLP/JSON. */
const TRACE_ID = 'ab'.repeat(16);
const trace = JSON.stringify({
  resourceSpans: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'desk-agent' } }] },
      scopeSpans: [
        {
          scope: { name: 'test' },
          spans: [
            {
              traceId: TRACE_ID,
              spanId: '01'.repeat(8),
              name: 'chat m',
              kind: 3,
              startTimeUnixNano: '1700000000000000000',
              endTimeUnixNano: '1700000000500000000',
              attributes: [
                { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
                { key: 'gen_ai.request.model', value: { stringValue: 'm' } },
                { key: 'gen_ai.usage.input_tokens', value: { intValue: '5' } },
                { key: 'gen_ai.usage.output_tokens', value: { intValue: '2' } },
              ],
            },
          ],
        },
      ],
    },
  ],
});

async function waitUntil(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 25));
}

describe('the desktop host receives OTLP traces on [telemetry] receiver_port', () => {
  it('listens on loopback with the token; a trace becomes a run and the window is told', async () => {
    const port = await freePort();
    const desk = await startDesktop(
      `[telemetry]\nreceiver_port = ${port}\nreceiver_token = "desk-token-0123456789"\n`,
    );
    const url = `http://127.0.0.1:${port}/v1/traces`;
    await waitUntil(async () => (await desk.status()).receiver !== undefined);
    expect((await desk.status()).receiver).toEqual({
      url,
      needsToken: true,
      evictedTraces: 0,
      refusedBodies: 0,
    });
    const post = (headers: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: trace,
      });
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: 'Bearer desk-token-0123456789' })).status).toBe(200);
    const [summary] = desk.runtime.runs.history.list().filter((s) => s.isImported);
    expect(summary).toMatchObject({ agent: 'desk-agent', isImported: true });
    await waitUntil(() => desk.window.sent.some((s) => s.channel === 'runs:changed'));
    const told = desk.window.sent
      .filter((s) => s.channel === 'runs:changed')
      .flatMap((s) => s.payload as RunSummary[]);
    expect(told.map((s) => s.runId)).toContain(summary!.runId);
  });

  it('opens no port without the key', async () => {
    const desk = await startDesktop('');
    expect(await desk.status()).toEqual({});
  });
});
