/**
 * Live tool output (issue 17 item 4) through the built `workbench` CLI, a real sandbox
 * container and the scripted model: a command that prints, sleeps and prints again has
 * its first line in a `tool.output` event well before its `tool.finished`, for bash and
 * python_execute; a 500,000-character flood stays within the event budget and the
 * capture cap; without --jsonl the lines are printed as they come.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent, RunEventOf } from '@shared/events';
import {
  startScriptedServer,
  type ScriptedOpenAiServer,
  type ScriptedServerReply,
} from '../../llm/testing/scripted-openai-server';
import { DEFAULT_OUTPUT_CAP_BYTES } from '../../sandbox/capped-output';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../../sandbox/testing/docker-env';

const engine = await probeDocker();
const root = fileURLToPath(new URL('../../../..', import.meta.url));
const servers: ScriptedOpenAiServer[] = [];

const SLOW_BASH = 'echo one; sleep 2; echo two';
const SLOW_PYTHON = 'import time\nprint("alpha")\ntime.sleep(2)\nprint("beta")';
const FLOOD = "head -c 500000 /dev/zero | tr '\\0' x";

const script: ScriptedServerReply[] = [
  { toolCalls: [{ name: 'bash', arguments: { command: SLOW_BASH } }] },
  { toolCalls: [{ name: 'python_execute', arguments: { code: SLOW_PYTHON } }] },
  { toolCalls: [{ name: 'bash', arguments: { command: FLOOD } }] },
  { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] },
];

/** Runs the CLI; each stdout line (or stderr chunk) with the time it arrived. */
async function runCli(jsonl: boolean) {
  const { server, baseUrl } = await startScriptedServer([...script]);
  servers.push(server);
  const dir = mkdtempSync(join(tmpdir(), 'wb-live-output-'));
  const config = join(dir, 'config.toml');
  writeFileSync(
    config,
    `[sandbox]\nimage = "${LOCAL_SANDBOX_IMAGE}"\n[llm]\nmodel = "scripted"\nbase_url = "${baseUrl}"\napi_key = "sk-test-live"\n`,
  );
  const args = ['run', '--agent', 'manus', ...(jsonl ? ['--jsonl'] : []), '--config', config, 'go'];
  const child = spawn(process.execPath, [join(root, 'bin/workbench.js'), ...args], {
    env: { ...process.env, WORKBENCH_HOME: dir },
  });
  const events: { event: RunEvent; at: number }[] = [];
  const stderrChunks: { text: string; at: number }[] = [];
  let pending = '';
  child.stdout.on('data', (d: Buffer) => {
    pending += d.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines)
      if (line.startsWith('{'))
        events.push({ event: JSON.parse(line) as RunEvent, at: Date.now() });
  });
  child.stderr.on('data', (d: Buffer) => stderrChunks.push({ text: d.toString(), at: Date.now() }));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, events, stderrChunks };
}

function callOf(events: { event: RunEvent; at: number }[], name: string, n = 0) {
  const started = events.filter(
    (e): e is { event: RunEventOf<'tool.started'>; at: number } =>
      e.event.type === 'tool.started' && e.event.name === name,
  )[n]!;
  const id = started.event.toolCallId;
  const outputs = events.filter(
    (e): e is { event: RunEventOf<'tool.output'>; at: number } =>
      e.event.type === 'tool.output' && e.event.toolCallId === id,
  );
  const finished = events.find(
    (e) => e.event.type === 'tool.finished' && e.event.toolCallId === id,
  )!;
  return { outputs, finished };
}

describe.skipIf(!engine.available || !existsSync(join(root, 'out/main/cli.js')))(
  'tool.output from a real sandbox',
  () => {
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.close()));
    });

    it('streams output while the command runs, batched and capped', async () => {
      const { code, events } = await runCli(true);
      expect(code).toBe(0);

      for (const [name, first, second] of [
        ['bash', 'one', 'two'],
        ['python_execute', 'alpha', 'beta'],
      ] as const) {
        const { outputs, finished } = callOf(events, name);
        const firstOut = outputs.find((o) => o.event.text.includes(first));
        expect(firstOut, `${name} streamed "${first}"`).toBeDefined();
        // seen live: in the stream before the call finished, and well before it did
        expect(firstOut!.event.seq).toBeLessThan(finished.event.seq);
        expect(finished.at - firstOut!.at).toBeGreaterThan(1_200);
        expect(outputs.map((o) => o.event.text).join('')).toBe(`${first}\n${second}\n`);
        expect(outputs.every((o) => o.event.stream === 'stdout')).toBe(true);
      }

      // 500,000 characters: a handful of events, no more than the capture cap streamed,
      // the rest counted
      const flood = callOf(events, 'bash', 1);
      expect(flood.outputs.length).toBeLessThanOrEqual(12);
      const streamed = flood.outputs.map((o) => o.event.text).join('');
      expect(streamed).toBe('x'.repeat(DEFAULT_OUTPUT_CAP_BYTES));
      expect(flood.outputs.at(-1)!.event.omittedBytes).toBe(500_000 - DEFAULT_OUTPUT_CAP_BYTES);
      expect(flood.outputs.every((o) => o.event.seq < flood.finished.event.seq)).toBe(true);
    }, 120_000);

    it('prints the lines as they come without --jsonl', async () => {
      const { code, stderrChunks } = await runCli(false);
      expect(code).toBe(0);
      const when = (pattern: RegExp) => stderrChunks.find((c) => pattern.test(c.text))?.at;
      const one = when(/ {4}│ one\n/);
      const done = when(/✓ bash/);
      expect(one).toBeDefined();
      expect(done! - one!).toBeGreaterThan(1_200);
      const all = stderrChunks.map((c) => c.text).join('');
      expect(all).toContain('    │ alpha\n');
      expect(all).toMatch(/│ x{240}… \(65,296 more characters\)/);
      expect(all).toMatch(/│ … 434,464 more bytes not shown live/);
    }, 120_000);
  },
);
