/**
 * The built-in demo of each agent without a sandbox, as a new user first meets it:
 * `workbench run --agent X` with no API key (issue 25 item 11: "the toolcall, browser and
 * mcp demos show no tool at work; each demo should show its agent's point"). The replies
 * are scripted (resources/demo/X.json); the tools are real: the toolcall loop, a headless
 * Chromium on a page the demo serves itself, and the workbench's own demo MCP server.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import { locateChromium } from '../runtime/tools/browser/chromium-location';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  events: RunEvent[];
}

/** `workbench run --agent AGENT --jsonl` in a fresh home with no API key. */
function demo(agent: string, configToml = ''): Promise<Ran> {
  const home = mkdtempSync(join(tmpdir(), 'wb-demo-agent-'));
  if (configToml) writeFileSync(join(home, 'config.toml'), configToml);
  const env: NodeJS.ProcessEnv = { ...process.env, WORKBENCH_HOME: home };
  env['WORKBENCH_DEMO_DELAY_MS'] = '0';
  for (const key of ['OPENAI_API_KEY', 'WORKBENCH_API_KEY']) delete env[key];
  const child = spawn(
    process.execPath,
    [join(root, 'bin/workbench.js'), 'run', '--agent', agent, '--jsonl', 'show me what you do'],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      const events = stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as RunEvent);
      resolve({ code, stdout, stderr, events });
    }),
  );
}

const finishedTools = (events: RunEvent[]) =>
  events.flatMap((e) => (e.type === 'tool.finished' ? [e] : []));
const replies = (events: RunEvent[]) =>
  events.flatMap((e) => (e.type === 'llm.responded' && e.content ? [e.content] : []));

const chromium = locateChromium({ executable_path: '' });

describe('the built-in demo of each agent shows its tools at work', () => {
  it('toolcall: says what the tool-calling loop is, and calls its tool', async () => {
    const ran = await demo('toolcall');
    expect(ran.code, ran.stderr).toBe(0);
    const tools = finishedTools(ran.events);
    expect(tools.map((t) => [t.name, t.ok])).toEqual([
      ['create_chat_completion', true],
      ['terminate', true],
    ]);
    expect(tools[0]!.output).toContain('went through the create_chat_completion tool');
    // the model's own words say what the agent does before it acts
    expect(replies(ran.events)[0]).toContain('the bare tool-calling loop');
  }, 60_000);

  it.skipIf(chromium.path === null)(
    'browser: opens a page the demo serves on this machine, clicks its link and lands on the next page',
    async () => {
      const ran = await demo('browser');
      expect(ran.code, ran.stderr).toBe(0);
      const tools = finishedTools(ran.events);
      expect(tools.map((t) => [t.name, t.ok])).toEqual([
        ['browser', true],
        ['browser', true],
        ['terminate', true],
      ]);
      expect(tools[0]!.output).toMatch(
        /Navigated to http:\/\/127\.0\.0\.1:\d+\/_scripted\/pages\/demo/,
      );
      expect(tools[0]!.output).toContain(
        '[0]<a href="/_scripted/pages/demo-next">Next: click me</a>',
      );
      expect(tools[1]!.output).toContain("Title: Clicked: the demo's second page");
      // the screenshot of each page went to the model (a user message with an image)
      const shots = ran.events.filter(
        (e) => e.type === 'memory.appended' && e.message.imageMimeType === 'image/jpeg',
      );
      expect(shots.length).toBeGreaterThanOrEqual(2);
    },
    90_000,
  );

  it('browser without Chromium: the run does not start, and says why and what to do', async () => {
    const ran = await demo('browser', '[browser]\nexecutable_path = "/nonexistent/chromium"\n');
    expect(ran.code).toBe(2);
    expect(ran.events).toEqual([]);
    expect(ran.stderr).toContain(
      'the run cannot start: The browser /nonexistent/chromium (from [browser] executable_path) does not exist',
    );
    expect(ran.stderr).toContain('Fix the path in Settings → Browser');
  }, 60_000);

  it('mcp: with no server configured, calls the tools of the built-in demo MCP server and says how to add one', async () => {
    const ran = await demo('mcp');
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toContain('the demo uses its built-in MCP server "demo"');
    const tools = finishedTools(ran.events);
    expect(tools.map((t) => [t.name, t.ok, t.output])).toEqual([
      ['mcp_demo_add', true, '19 + 23 = 42'],
      ['mcp_demo_word_count', true, '8 words, 1 line, 39 characters'],
      ['terminate', true, expect.any(String)],
    ]);
    expect(replies(ran.events).at(-1)).toContain('add it in Settings → MCP servers');
  }, 60_000);
});
