import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IpcMainInvokeEvent } from 'electron';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import { PUSH_CHANNELS, REQUEST_CHANNELS, type IpcResult } from '@shared/ipc';
import { FakeWebContents } from '../../electron/testing/electron-mock';
import { createRuntime, type Runtime } from '../../runtime/runtime';
import { testRunFactory } from '../testing/test-runs';
import { startElectronHost, type ElectronHost, type IpcMainLike } from './electron-host';

type Handler = (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown;

function fakeIpcMain() {
  const handlers = new Map<string, Handler>();
  const ipc: IpcMainLike = {
    handle: (channel, listener) => void handlers.set(channel, listener),
    removeHandler: (channel) => void handlers.delete(channel),
  };
  return { ipc, handlers };
}

const APP = 'app://workbench';
const fromUrl = (url: string | null) =>
  ({ senderFrame: url === null ? null : { url } }) as unknown as IpcMainInvokeEvent;

let runtime: Runtime | undefined;
let host: ElectronHost | undefined;
afterEach(async () => {
  host?.dispose();
  await runtime?.dispose();
  host = undefined;
  runtime = undefined;
});

function start() {
  const { ipc, handlers } = fakeIpcMain();
  const rt: Runtime = createRuntime({
    home: mkdtempSync(join(tmpdir(), 'wb-eh-')),
    factory: testRunFactory(() => rt),
    env: {},
  });
  runtime = rt;
  host = startElectronHost({
    runtime: rt,
    ipcMain: ipc,
    allowedOrigins: [APP],
    context: { dockerProbe: async () => ({ isAvailable: false }) },
  });
  const call = (channel: string, input: unknown, url: string | null = `${APP}/index.html`) => {
    const handler = handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return handler(fromUrl(url), input) as Promise<IpcResult<unknown>>;
  };
  return { runtime: rt, host, handlers, call };
}

/** Random junk in the shapes attackers and bugs produce (reliability E7). */
function junk(seed: number): unknown {
  let s = seed * 7919 + 17;
  const rand = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(list: T[]): T => list[Math.floor(rand() * list.length)] as T;
  const scalar = () =>
    pick<unknown>([
      null,
      -1,
      1e308,
      Number.NaN,
      '',
      'x'.repeat(Math.floor(rand() * 300_000)),
      '../../../etc/passwd',
      '\u0000',
      true,
      [],
      [1, 2],
    ]);
  const key = () =>
    pick(['__proto__', 'constructor', 'task', 'runId', 'target', 'llm', 'x', 'apiKey']);
  const shape = pick(['scalar', 'object', 'nested', 'array']);
  if (shape === 'scalar') return scalar();
  if (shape === 'array') return [scalar(), { [key()]: scalar() }];
  const obj: Record<string, unknown> = { [`junk${seed}`]: scalar() };
  for (let i = 0; i < 3; i++) obj[key()] = shape === 'nested' ? { [key()]: scalar() } : scalar();
  return JSON.parse(JSON.stringify(obj)) as unknown;
}

describe('Electron transport', () => {
  it('refuses every channel from a foreign origin and from a null senderFrame (E6)', async () => {
    const { call, handlers } = start();
    expect([...handlers.keys()].sort()).toEqual([...REQUEST_CHANNELS].sort());
    let refused = 0;
    for (const channel of REQUEST_CHANNELS) {
      for (const url of [
        'https://evil.example/',
        null,
        'file:///etc/passwd',
        'app://workbench.evil/',
      ]) {
        const result = await call(channel, {}, url);
        expect(result, `${channel} from ${url}`).toMatchObject({
          ok: false,
          error: { code: 'forbidden' },
        });
        refused++;
      }
    }
    expect(refused).toBe(REQUEST_CHANNELS.length * 4);
    expect(await call('runs:list', {})).toEqual({ ok: true, value: [] });
  });

  it('answers 50 malformed payloads per channel with a typed error, never an exception (E7)', async () => {
    const { call } = start();
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);
    process.on('uncaughtException', onUncaught);
    try {
      for (const channel of REQUEST_CHANNELS) {
        for (let i = 0; i < 50; i++) {
          const result = await call(channel, junk(i));
          expect(result.ok, `${channel} #${i}`).toBe(false);
          if (!result.ok) expect(result.error.code).toBe('invalid_input');
        }
      }
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
  });

  it('pushes run events in frame batches to live windows, and never to a destroyed one (E14)', async () => {
    const { call, host: h } = start();
    const windows: FakeWebContents[] = [];
    const errors: unknown[] = [];
    // 20 windows opened and closed while a run streams
    const started = await call('run:start', { task: 'steps: 40 delay: 10', agent: 'toolcall' });
    if (!started.ok) throw new Error('run did not start');
    const { runId } = started.value as { runId: string };
    for (let i = 0; i < 20; i++) {
      const wc = new FakeWebContents();
      windows.push(wc);
      h.attach(wc as never);
      await new Promise((r) => setTimeout(r, 5));
      try {
        wc.destroy();
      } catch (error) {
        errors.push(error);
      }
    }
    const last = new FakeWebContents();
    h.attach(last as never);
    while (!last.sent.some((s) => JSON.stringify(s.payload).includes('"run.finished"'))) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(errors).toEqual([]);
    for (const wc of windows) {
      // nothing was sent after the window was gone (send() would have thrown)
      expect(wc.sent.every((s) => (PUSH_CHANNELS as readonly string[]).includes(s.channel))).toBe(
        true,
      );
    }
    const events = last.sent
      .filter((s) => s.channel === 'run:events')
      .flatMap((s) => s.payload as RunEvent[])
      .filter((e) => e.runId === runId);
    expect(events.length).toBeGreaterThan(10);
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => (seqs[0] ?? 1) + i));
    // batched: far fewer pushes than events
    expect(last.sent.filter((s) => s.channel === 'run:events').length).toBeLessThan(events.length);
  }, 20_000);

  it('lets an open window answer ask_human, and not once it is gone', () => {
    const { runtime: rt, host: h } = start();
    expect(rt.services.human.hasSurface).toBe(false);
    const wc = new FakeWebContents();
    h.attach(wc as never);
    expect(rt.services.human.hasSurface).toBe(true);
    wc.destroy();
    expect(rt.services.human.hasSurface).toBe(false);
  });

  it('removes its handlers when disposed', () => {
    const { handlers, host: h } = start();
    h.dispose();
    expect(handlers.size).toBe(0);
  });
});
