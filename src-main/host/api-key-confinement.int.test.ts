/**
 * Reliability E12: an API key set in config appears in no push, no run log and no
 * console output of a full run. A real `workbench serve` process, a browser-like
 * client recording every frame, a key saved through the contract, full runs against
 * the scripted OpenAI server with the real `openai` client (a success, and a 401),
 * then every byte the key could have leaked into is searched.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { WsServerFrame } from '@shared/ws-protocol';
import { ScriptedOpenAiServer } from '../runtime/llm/testing/scripted-openai-server';

const root = fileURLToPath(new URL('../..', import.meta.url));
const KEY = `sk-test-${randomUUID()}`;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('API key confinement (reliability E12)', () => {
  const cleanups: (() => unknown)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('keeps the key out of pushes, answers, run logs, exports and console output', async () => {
    // The "model" even echoes the key back, as a leaky tool output would.
    const server = new ScriptedOpenAiServer(
      (_request, index) =>
        index === 0
          ? { content: `I was called with ${KEY}` }
          : index === 1
            ? { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] }
            : { error: { status: 401 } },
      { apiKey: KEY },
    );
    const baseUrl = await server.start();
    cleanups.push(() => server.close());

    const home = mkdtempSync(join(tmpdir(), 'wb-e12-'));
    const child = spawn(process.execPath, [join(root, 'bin/workbench.js'), 'serve'], {
      env: { ...process.env, WORKBENCH_HOME: home },
    });
    let console = '';
    child.stdout.on('data', (d: Buffer) => (console += d.toString()));
    child.stderr.on('data', (d: Buffer) => (console += d.toString()));
    let hasExited = false;
    const exited = new Promise((resolve) =>
      child.on('close', () => {
        hasExited = true;
        resolve(undefined);
      }),
    );
    cleanups.push(async () => {
      child.kill('SIGTERM');
      await exited;
    });
    const started = Date.now();
    while (!/token=/.test(console)) {
      if (hasExited || Date.now() - started > 30_000) {
        throw new Error(`serve did not start: ${console}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    // the URL with the token (serve also prints the sandbox MCP server's URL, on stderr)
    const url = new URL(/http:\/\/\S+token=\S+/.exec(console)?.[0] ?? '');

    const ws = new WebSocket(`ws://${url.host}/ws?token=${url.searchParams.get('token')}`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const frames: string[] = [];
    ws.on('message', (data) => frames.push(data.toString()));
    let nextId = 1;
    const request = async (channel: string, input: unknown) => {
      const id = nextId++;
      ws.send(JSON.stringify({ kind: 'request', id, channel, input }));
      for (;;) {
        for (const text of frames) {
          const frame = JSON.parse(text) as WsServerFrame;
          if (frame.kind === 'response' && frame.id === id) return frame.result;
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    const runFinished = async (runId: string) => {
      for (;;) {
        if (frames.some((f) => f.includes(runId) && f.includes('"run.finished"'))) return;
        await new Promise((r) => setTimeout(r, 20));
      }
    };

    expect(
      await request('config:save', {
        target: 'default',
        llm: { model: 'scripted-model', base_url: baseUrl, stream: false },
        apiKey: { action: 'set', value: KEY },
      }),
    ).toMatchObject({ ok: true });
    const ok = await request('run:start', { task: 'say hi', agent: 'toolcall' });
    if (!ok.ok) throw new Error(ok.error.message);
    const okRunId = (ok.value as { runId: string }).runId;
    await runFinished(okRunId);
    const failed = await request('run:start', { task: 'again', agent: 'toolcall' });
    if (!failed.ok) throw new Error(failed.error.message);
    const failedRunId = (failed.value as { runId: string }).runId;
    await runFinished(failedRunId);
    // the runs really went through the model with the key (and the second was refused)
    expect(server.requests.length).toBe(3);
    expect(frames.join('\n')).toContain('[redacted]');
    expect(frames.some((f) => f.includes(failedRunId) && /"outcome":"error"/.test(f))).toBe(true);

    for (const [channel, input] of [
      ['config:get', {}],
      ['app:info', {}],
      ['runs:list', {}],
      ['runs:get', { runId: okRunId }],
      ['runs:export', { runId: okRunId }],
      ['runs:get', { runId: failedRunId }],
      ['config:test-connection', { target: 'manus' }],
    ] as const) {
      expect(await request(channel, input), channel).toMatchObject({ ok: true });
    }
    ws.close();
    child.kill('SIGTERM');
    await exited;

    expect(frames.join('\n')).not.toContain(KEY);
    expect(console).not.toContain(KEY);
    const leaking = filesUnder(home).filter(
      (file) => !file.endsWith('secrets.json') && readFileSync(file, 'utf8').includes(KEY),
    );
    expect(leaking).toEqual([]);
    // it is stored, readable only by the user
    const secrets = join(home, 'secrets.json');
    expect(readFileSync(secrets, 'utf8')).toContain(KEY);
    expect(statSync(secrets).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(home, 'runs')).filter((f) => f.endsWith('.jsonl'))).toHaveLength(2);
  });
});
