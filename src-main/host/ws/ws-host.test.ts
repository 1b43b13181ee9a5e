import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunEvent } from '@shared/events';
import type { WsServerFrame } from '@shared/ws-protocol';
import { createRuntime, type Runtime } from '../../runtime/runtime';
import { startWsHost, type WsHost } from './ws-host';

let host: WsHost | undefined;
let runtime: Runtime | undefined;
afterEach(async () => {
  await host?.close();
  await runtime?.dispose();
  host = undefined;
});

async function start(staticDir?: string) {
  // No API key in an empty home: runs use the built-in demo model (two steps).
  process.env['WORKBENCH_DEMO_DELAY_MS'] = '1';
  runtime = createRuntime({ home: mkdtempSync(join(tmpdir(), 'wb-home-')) });
  host = await startWsHost({ runtime, port: 0, ...(staticDir ? { staticDir } : {}) });
  return host;
}

function connect(h: WsHost, options: { token?: string; origin?: string } = {}): Promise<WebSocket> {
  const url = `ws://127.0.0.1:${h.port}/ws?token=${options.token ?? h.token}`;
  const ws = new WebSocket(url, options.origin ? { origin: options.origin } : {});
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

function request(
  ws: WebSocket,
  id: number,
  channel: string,
  input: unknown,
): Promise<WsServerFrame> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const frame = JSON.parse(data.toString()) as WsServerFrame;
      if (frame.kind === 'response' && frame.id === id) {
        ws.off('message', onMessage);
        resolve(frame);
      }
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ kind: 'request', id, channel, input }));
  });
}

describe('ws host', () => {
  it('binds to 127.0.0.1 and prints a URL carrying the token', async () => {
    const h = await start();
    expect(h.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${h.port}/\\?token=${h.token}$`));
    expect(h.token.length).toBeGreaterThanOrEqual(32);
  });

  it('starts a run over the contract and pushes its events in order', async () => {
    const h = await start();
    const ws = await connect(h);
    const events: RunEvent[] = [];
    const finished = new Promise<void>((resolve) => {
      ws.on('message', (data) => {
        const frame = JSON.parse(data.toString()) as WsServerFrame;
        if (frame.kind !== 'push' || frame.channel !== 'run:events') return;
        events.push(...frame.payload);
        if (frame.payload.some((e) => e.type === 'run.finished')) resolve();
      });
    });
    const response = await request(ws, 1, 'run:start', { task: 'hello', agent: 'toolcall' });
    expect(response).toMatchObject({ kind: 'response', id: 1, result: { ok: true } });
    await finished;
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events[0]?.type).toBe('run.started');
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'finished' });
    const list = await request(ws, 2, 'runs:list', {});
    expect(list).toMatchObject({
      result: { ok: true, value: [{ agent: 'toolcall', outcome: 'finished', steps: 2 }] },
    });
    ws.close();
  });

  it('answers malformed input and unknown channels with typed errors', async () => {
    const h = await start();
    const ws = await connect(h);
    expect(await request(ws, 1, 'run:start', { task: 42 })).toMatchObject({
      result: { ok: false, error: { code: 'invalid_input', issues: [{ path: 'task' }] } },
    });
    expect(await request(ws, 2, 'fs:read', {})).toMatchObject({
      result: { ok: false, error: { code: 'not_found' } },
    });
    expect(await request(ws, 3, 'run:stop', { runId: 'missing' })).toMatchObject({
      result: { ok: false, error: { code: 'not_found' } },
    });
    ws.close();
  });

  it('refuses a wrong token and a foreign Origin', async () => {
    const h = await start();
    for (const token of ['wrong', '', h.token.slice(0, -1), `${h.token}x`]) {
      await expect(connect(h, { token }), token).rejects.toThrow('HTTP 401');
    }
    // another origin learns nothing about the token it tries: refused before it is read
    await expect(connect(h, { token: 'wrong', origin: 'http://evil.example' })).rejects.toThrow(
      'HTTP 403',
    );
    await expect(connect(h, { origin: 'http://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(connect(h, { origin: `http://127.0.0.1:${h.port + 1}` })).rejects.toThrow(
      'HTTP 403',
    );
    const ok = await connect(h, { origin: `http://127.0.0.1:${h.port}` });
    ok.close();
  });

  it('tells a page whose upgrade failed whether its token is the reason, and nothing more', async () => {
    const h = await start();
    const check = (token: string, headers: Record<string, string> = {}) =>
      fetch(`http://127.0.0.1:${h.port}/ws?token=${encodeURIComponent(token)}`, { headers });
    const accepted = await check(h.token);
    expect(accepted.status).toBe(204);
    expect(await accepted.text()).toBe('');
    for (const token of ['', 'old-token-of-a-restarted-server', `${h.token}x`]) {
      const refused = await check(token);
      expect(refused.status, token).toBe(401);
      expect(await refused.text()).toBe('');
    }
    expect((await check(h.token, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await check('wrong', { origin: `http://127.0.0.1:${h.port}` })).status).toBe(401);
    const post = await fetch(`http://127.0.0.1:${h.port}/ws?token=${h.token}`, { method: 'POST' });
    expect(post.status).toBe(405);
  });

  it('serves the UI with a CSP and never a file outside its folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-static-'));
    writeFileSync(join(dir, 'index.html'), '<html>ui</html>');
    const h = await start(dir);
    const index = await fetch(`http://127.0.0.1:${h.port}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await index.text()).toBe('<html>ui</html>');
    for (const path of [
      '/../package.json',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/..%2f..%2fetc%2fpasswd',
      '/%00index.html',
      '/nope.js',
    ]) {
      const res = await fetch(`http://127.0.0.1:${h.port}${path}`);
      expect(res.status, path).toBe(404);
    }
    // fetch() will not send a forged Host header; a raw request does (DNS rebinding).
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: h.port, path: '/', headers: { host: `evil.example:${h.port}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(421);
  });
});
