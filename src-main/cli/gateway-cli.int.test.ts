/**
 * `workbench gateway` as a user starts it (the built CLI): it prints OPENAI_BASE_URL and
 * OPENAI_API_KEY, records an agent's calls into the history under WORKBENCH_HOME with
 * the --break breakpoints, and ends its runs on SIGTERM.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import OpenAI from 'openai';
import { RunStore } from '../runtime/runs/run-store';
import { ScriptedOpenAiServer } from '../runtime/llm/testing/scripted-openai-server';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

it('prints the base URL and key, records the agent, and ends its run on SIGTERM', async () => {
  const upstream = new ScriptedOpenAiServer(() => ({ content: 'Hello from upstream.' }), {
    apiKey: 'sk-cli-upstream-key-0123',
  });
  const baseUrl = await upstream.start();
  const home = mkdtempSync(join(tmpdir(), 'wb-gateway-cli-'));
  cleanups.push(
    () => upstream.close(),
    () => rmSync(home, { recursive: true, force: true }),
  );
  writeFileSync(
    join(home, 'config.toml'),
    `[llm]\nmodel = "gpt-4o-mini"\nbase_url = "${baseUrl}"\napi_key = "sk-cli-upstream-key-0123"\n`,
    { mode: 0o600 },
  );
  const child = spawn(
    process.execPath,
    [join(root, 'bin/workbench.js'), 'gateway', '--break', 'tokens:1000000'],
    { env: { ...process.env, WORKBENCH_HOME: home } },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const printed = await new Promise<Record<string, string>>((resolve) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const pairs = Object.fromEntries(
        stdout
          .split('\n')
          .filter((l) => l.includes('='))
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
      if (pairs['OPENAI_API_KEY']) resolve(pairs);
    });
  });
  expect(printed['OPENAI_BASE_URL']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  const client = new OpenAI({
    baseURL: printed['OPENAI_BASE_URL'],
    apiKey: printed['OPENAI_API_KEY'],
    defaultHeaders: { 'X-Workbench-Run': 'cli-agent' },
  });
  const reply = await client.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'Say hello' }],
  });
  expect(reply.choices[0]!.message.content).toBe('Hello from upstream.');
  const code = await new Promise<number | null>((resolve) => {
    child.on('close', resolve);
    child.kill('SIGTERM');
  });
  expect(code, stderr).toBe(0);
  expect(stderr).toMatch(/forwarding to profile "default" \(gpt-4o-mini\)/);
  const store = new RunStore(join(home, 'runs'));
  const [summary] = store.list();
  expect(summary).toMatchObject({ agent: 'external: cli-agent', task: 'Say hello', steps: 1 });
  const events = store.read(summary!.runId)!.events;
  expect(events.find((e) => e.type === 'breakpoints.changed')).toMatchObject({
    breakpoints: [expect.objectContaining({ spec: 'tokens:1000000' })],
  });
  expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'finished' });
  store.close();
});
