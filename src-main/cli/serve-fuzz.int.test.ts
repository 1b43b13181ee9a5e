/**
 * `workbench serve` as a real process under hostile WebSocket input (issue 12 item 1):
 * every malformed-frame case, then 10,000 seeded random frames over many connections.
 * The process must stay up and keep answering; before the fix one frame killed it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawConnect, textFrame } from '../host/ws/testing/raw-ws-client';
import { MALFORMED_CASES, randomFrame, seededRandom } from '../host/ws/testing/ws-fuzz';

const root = fileURLToPath(new URL('../..', import.meta.url));

let child: ChildProcess;
let port = 0;
let token = '';
let stderr = '';
let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;

beforeAll(async () => {
  child = spawn(process.execPath, [join(root, 'bin/workbench.js'), 'serve', '--port', '0'], {
    env: { ...process.env, WORKBENCH_HOME: mkdtempSync(join(tmpdir(), 'wb-serve-fuzz-')) },
  });
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  child.on('exit', (code, signal) => (exit = { code, signal }));
  const url = await new Promise<URL>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('http://'));
      if (line) resolve(new URL(line.trim()));
    });
    child.on('exit', () => reject(new Error(`serve exited before listening: ${stderr}`)));
  });
  port = Number(url.port);
  token = url.searchParams.get('token') ?? '';
});

afterAll(async () => {
  if (exit) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await exited;
});

const isResponse = (id: number) => (frame: unknown) =>
  (frame as { kind?: string; id?: number }).kind === 'response' &&
  (frame as { id?: number }).id === id;

async function expectServing(): Promise<void> {
  expect(exit, `workbench serve died: ${stderr}`).toBeNull();
  const probe = await rawConnect(port, token);
  probe.write(
    textFrame(JSON.stringify({ kind: 'request', id: 1, channel: 'app:info', input: {} })),
  );
  expect(await probe.response(isResponse(1))).toMatchObject({ result: { ok: true } });
  probe.destroy();
}

describe('workbench serve under hostile WebSocket input', () => {
  it('closes only the offending connection for every malformed-frame case', async () => {
    for (const { name, frames, expected } of MALFORMED_CASES) {
      const connection = await rawConnect(port, token);
      for (const frame of frames) connection.write(frame);
      if ('close' in expected) expect(await connection.closeCode(), name).toBe(expected.close);
      else {
        expect(await connection.response(isResponse(expected.answers)), name).toMatchObject({
          result: { ok: false },
        });
      }
      connection.destroy();
      await expectServing();
    }
  });

  it('keeps answering after a 10,000-frame random fuzz run', async () => {
    const random = seededRandom(20_251_201);
    let sent = 0;
    let connections = 0;
    const started = performance.now();
    // Four clients at a time, each sending bursts of random frames on fresh connections.
    const worker = async () => {
      while (sent < 10_000) {
        const connection = await rawConnect(port, token);
        connections++;
        const burst = 1 + Math.floor(random() * 15);
        for (let i = 0; i < burst; i++) connection.write(randomFrame(random));
        sent += burst;
        if (random() < 0.5) connection.destroy();
        else {
          connection.socket.end();
          await connection.closed(15_000);
        }
        if (connections % 500 === 0) await expectServing();
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    const seconds = (performance.now() - started) / 1000;
    console.log(`fuzz: ${sent} frames over ${connections} connections in ${seconds.toFixed(1)} s`);
    await expectServing();
    expect(stderr).not.toMatch(/Uncaught|TypeError|RangeError/);
  }, 120_000);
});
