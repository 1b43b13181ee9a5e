/** The standalone scripted server as the Playwright specs start it: a real child process. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('./serve-scripted.ts', import.meta.url));
let child: ChildProcess | null = null;

afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGTERM');
  child = null;
});

function start(args: string[]): Promise<{ url: string } | { code: number; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child = proc;
    let out = '';
    let err = '';
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /SCRIPTED_OPENAI_URL=(\S+)/.exec(out);
      if (match?.[1]) resolve({ url: match[1] });
    });
    proc.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    proc.on('exit', (code) => resolve({ code: code ?? -1, stderr: err }));
  });
}

describe('serve-scripted', () => {
  it('serves a scenario file and lists the requests it got', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-scenario-'));
    const file = join(dir, 'scenarios.json');
    writeFileSync(
      file,
      JSON.stringify({
        models: ['gpt-4o'],
        scenarios: [{ name: 'echo', turns: [{ content: 'model is {{model}}' }] }],
      }),
    );
    const started = await start(['--scenarios', file]);
    if (!('url' in started)) throw new Error(`did not start: ${started.stderr}`);
    const response = await fetch(`${started.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-secret' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    const body = (await response.json()) as { choices: { message: { content: string } }[] };
    expect(body.choices[0]?.message.content).toBe('model is gpt-4o-mini');
    const origin = new URL(started.url).origin;
    const requests = (await (await fetch(`${origin}/_scripted/requests`)).json()) as {
      model: string;
      headers: Record<string, string>;
    }[];
    expect(requests.map((r) => r.model)).toEqual(['gpt-4o-mini']);
    expect(requests[0]?.headers['authorization']).toBe('[redacted]');
    const models = (await (await fetch(`${started.url}/models`)).json()) as {
      data: { id: string }[];
    };
    expect(models.data.map((m) => m.id)).toEqual(['gpt-4o']);
  });

  it('exits 2 naming the bad key of an invalid scenario file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-scenario-'));
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ scenarios: [{ name: 'x', turns: [{ delay: 5 }] }] }));
    const result = await start(['--scenarios', file]);
    expect(result).toMatchObject({ code: 2 });
    expect('stderr' in result && result.stderr).toContain('scenarios.0.turns.0');
  });
});
