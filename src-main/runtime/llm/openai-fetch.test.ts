/**
 * The SDK's fetch (openai-fetch.ts) against real sockets: what a user saw with Node's
 * fetch stays (decoded bodies, redirects, refused ports, aborts, cut bodies, caps), and
 * the requests share one kept-alive connection with the body sent in one piece.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { keepAliveFetch } from './openai-fetch';
import { ReplyTooLargeError } from './reply-limits';
import { streamSaidDone } from './stream-end';

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

let server: Server | null = null;
let connections = 0;

async function serve(handler: Handler): Promise<string> {
  connections = 0;
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(req, res, Buffer.concat(chunks)));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  const running = server;
  server = null;
  if (!running) return;
  running.closeAllConnections();
  await new Promise((resolve) => running.close(resolve));
});

const post = (body: string) => ({
  method: 'POST',
  headers: new Headers({ 'content-type': 'application/json' }),
  body,
});

describe('keepAliveFetch', () => {
  it('sends the body with its length on one kept-alive connection and reads JSON back', async () => {
    const seen: { length?: string; chunked?: string; body: string }[] = [];
    const url = await serve((req, res, body) => {
      seen.push({
        length: req.headers['content-length'],
        chunked: req.headers['transfer-encoding'],
        body: body.toString(),
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":"é"}');
    });
    const fetchIt = keepAliveFetch();
    for (let i = 0; i < 3; i++) {
      const response = await fetchIt(`${url}/v1/chat/completions`, post('{"n":"é"}'));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toEqual({ ok: 'é' });
      expect(response.bodyUsed).toBe(true);
    }
    expect(seen).toEqual(
      Array(3).fill({ length: String(Buffer.byteLength('{"n":"é"}')), body: '{"n":"é"}' }),
    );
    expect(connections).toBe(1);
  });

  it('decodes a gzip body, as fetch does', async () => {
    const url = await serve((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
        .end(gzipSync('{"zipped":true}'));
    });
    const response = await keepAliveFetch()(url, post('{}'));
    expect(await response.text()).toBe('{"zipped":true}');
  });

  it('follows a redirect through fetch', async () => {
    const url = await serve((req, res, body) => {
      if (req.url === '/old') res.writeHead(307, { location: '/new' }).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end(`${req.url} ${body}`);
    });
    const response = await keepAliveFetch()(`${url}/old`, post('{"a":1}'));
    expect(await response.text()).toBe('/new {"a":1}');
  });

  it("refuses a fetch 'bad port' with fetch's own error", async () => {
    const error = await keepAliveFetch()('http://127.0.0.1:9/v1', post('{}')).catch(
      (e: unknown) => e,
    );
    expect(String((error as Error).cause)).toMatch(/bad port/);
  });

  it('rejects with the abort reason, before and during the request', async () => {
    const url = await serve(() => undefined); // never answers
    const before = new AbortController();
    before.abort(new Error('stopped before'));
    await expect(keepAliveFetch()(url, { ...post('{}'), signal: before.signal })).rejects.toThrow(
      'stopped before',
    );
    const during = new AbortController();
    const pending = keepAliveFetch()(url, { ...post('{}'), signal: during.signal });
    setTimeout(() => during.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('a body cut short fails with TypeError terminated, when it is read', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"partial":');
      setTimeout(() => res.destroy(), 20);
    });
    const response = await keepAliveFetch()(url, post('{}'));
    await expect(response.json()).rejects.toThrow('terminated');
  });

  it('caps a JSON body at a quarter of the stream cap, and an event stream at the cap', async () => {
    const url = await serve((req, res) => {
      const stream = req.url === '/stream';
      res.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' });
      res.end(`data: ${'x'.repeat(5_000)}\n\n`);
    });
    const json = keepAliveFetch(8_000)(`${url}/json`, post('{}'));
    await expect(json.then((r) => r.text())).rejects.toBeInstanceOf(ReplyTooLargeError);
    const stream = await keepAliveFetch(4_000)(`${url}/stream`, post('{}'));
    await expect(stream.text()).rejects.toBeInstanceOf(ReplyTooLargeError);
    const fits = await keepAliveFetch(8_000)(`${url}/stream`, post('{}'));
    expect((await fits.text()).length).toBe(5_008);
  });

  it('streams an event stream as it comes and sees its [DONE], also split across chunks', async () => {
    const url = await serve((req, res) => {
      res.writeHead(200, req.url === '/typeless' ? {} : { 'content-type': 'text/event-stream' });
      res.write('data: {"a":1}\n\ndata: [DO');
      setTimeout(() => res.end('NE]\n\n'), 20);
    });
    for (const path of ['/sse', '/typeless']) {
      const response = await keepAliveFetch()(`${url}${path}`, post('{}'));
      expect(streamSaidDone(response)).toBe(false);
      const text = await response.text();
      expect(text).toBe('data: {"a":1}\n\ndata: [DONE]\n\n');
      expect(streamSaidDone(response)).toBe(true);
    }
    const quoted = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: "x data: [DONE]"\n\n');
    });
    const response = await keepAliveFetch()(quoted, post('{}'));
    await response.text();
    expect(streamSaidDone(response)).toBe(false);
  });
});
