/**
 * `workbench run --jsonl --config FILE TASK` as a user runs it: the built CLI in a real
 * process, a real model client, the scripted OpenAI server (DESIGN section 3). Checks
 * the event stream (valid RunEvents, seq gapless from 1, run.finished last) and the exit
 * code for: terminate, max steps, a persistent 500, a 429 then success, SIGINT.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { looksLikeRunEvent, type RunEvent } from '@shared/events';
import { scenarioScript, parseScenarioFile } from '../../runtime/llm/testing/scenario-script';
import { ScriptedOpenAiServer } from '../../runtime/llm/testing/scripted-openai-server';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const KEY = 'sk-cli-sentinel-5d0c9e7a1b2f';

const scenarios = parseScenarioFile(
  JSON.stringify({
    scenarios: [
      {
        name: 'done',
        match: 'say hello',
        turns: [
          { toolCalls: [{ name: 'create_chat_completion', arguments: { response: 'Hello!' } }] },
          { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] },
        ],
      },
      {
        name: 'forever',
        match: 'never ends',
        turns: [
          {
            content: 'still working',
            toolCalls: [{ name: 'create_chat_completion', arguments: { response: 'more' } }],
          },
        ],
      },
      { name: 'broken', match: 'provider down', turns: [{ error: { status: 500 } }] },
      {
        name: 'flaky',
        match: 'rate limited once',
        turns: [
          {
            attempts: [
              { error: { status: 429, headers: { 'retry-after': '1' } } },
              { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] },
            ],
          },
        ],
      },
      { name: 'slow', match: 'take your time', turns: [{ content: 'thinking', delayMs: 60_000 }] },
      { name: 'denied', match: 'bad key', turns: [{ error: { status: 401 } }] },
    ],
  }),
);

let server: ScriptedOpenAiServer;
let configFile: string;

beforeAll(async () => {
  server = new ScriptedOpenAiServer(scenarioScript(scenarios));
  const baseUrl = await server.start();
  const dir = mkdtempSync(join(tmpdir(), 'wb-run-cli-'));
  configFile = join(dir, 'config.toml');
  writeFileSync(
    configFile,
    [
      '[llm]',
      'model = "gpt-cli"',
      `base_url = "${baseUrl}"`,
      `api_key = "${KEY}"`,
      'max_retries = 1',
      'timeout = 30',
      '',
      '[agent.toolcall]',
      'max_steps = 3',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await server.close();
});

interface Ran {
  code: number | null;
  events: RunEvent[];
  stdout: string;
  stderr: string;
}

function workbench(
  args: string[],
  options: { onEvent?: (event: RunEvent, kill: (signal: NodeJS.Signals) => void) => void } = {},
): Promise<Ran> {
  const home = mkdtempSync(join(tmpdir(), 'wb-run-home-'));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'bin/workbench.js'), ...args], {
      env: { ...process.env, WORKBENCH_HOME: home },
    });
    let stdout = '';
    let stderr = '';
    let pending = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      pending += d.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('{'))
          options.onEvent?.(JSON.parse(line) as RunEvent, (s) => child.kill(s));
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => {
      // without --jsonl stdout is the answer, not events
      const events = stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as RunEvent);
      resolve({ code, events, stdout, stderr });
    });
  });
}

function expectValidStream(events: RunEvent[]): void {
  expect(events.length).toBeGreaterThan(2);
  expect(events.every(looksLikeRunEvent)).toBe(true);
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  expect(new Set(events.map((e) => e.runId)).size).toBe(1);
  expect(events[0]?.type).toBe('run.started');
  expect(events.at(-1)?.type).toBe('run.finished');
  expect(events.filter((e) => e.type === 'run.finished')).toHaveLength(1);
}

const run = (task: string) =>
  workbench(['run', '--jsonl', '--agent', 'toolcall', '--config', configFile, task]);

describe('workbench run against the scripted model server', () => {
  it('exits 0 when the model terminates, with a valid event stream', async () => {
    const { code, events, stderr } = await run('say hello');
    expect(code, stderr).toBe(0);
    expectValidStream(events);
    expect(events[0]).toMatchObject({ type: 'run.started', model: 'gpt-cli', agent: 'toolcall' });
    expect(events.at(-1)).toMatchObject({
      outcome: 'finished',
      terminateStatus: 'success',
      steps: 2,
    });
    const tools = events
      .filter((e) => e.type === 'tool.finished')
      .map((e) => e.type === 'tool.finished' && e.name);
    expect(tools).toEqual(['create_chat_completion', 'terminate']);
  });

  it('exits 3 when the step limit is reached', async () => {
    const { code, events } = await run('this task never ends');
    expect(code).toBe(3);
    expectValidStream(events);
    expect(events.at(-1)).toMatchObject({ outcome: 'max_steps', steps: 3 });
  });

  it('exits 1 on a persistent 500, after the configured retries, with the reason', async () => {
    const { code, events } = await run('the provider down again');
    expect(code).toBe(1);
    expectValidStream(events);
    expect(events.filter((e) => e.type === 'llm.retried')).toHaveLength(1);
    const finished = events.at(-1);
    expect(finished).toMatchObject({ outcome: 'error', state: 'ERROR' });
    expect(finished?.type === 'run.finished' && finished.error).toMatch(
      /500.*gave up after 2 attempts/,
    );
  });

  it('exits 0 after a 429 then success, having waited the Retry-After', async () => {
    const { code, events } = await run('rate limited once');
    expect(code).toBe(0);
    expectValidStream(events);
    const retried = events.filter((e) => e.type === 'llm.retried');
    expect(retried).toHaveLength(1);
    expect(retried[0]).toMatchObject({ status: 429, attempt: 1 });
    expect(retried[0]?.type === 'llm.retried' && retried[0].delayMs).toBeGreaterThanOrEqual(1000);
  });

  it('exits 130 on SIGINT, stopping the run cleanly: run.finished is still the last event', async () => {
    let signalledAt = 0;
    const ran = await workbench(
      ['run', '--jsonl', '--agent', 'toolcall', '--config', configFile, 'take your time'],
      {
        onEvent: (event, kill) => {
          if (event.type === 'llm.requested' && !signalledAt) {
            signalledAt = Date.now();
            kill('SIGINT');
          }
        },
      },
    );
    expect(ran.code).toBe(130);
    expect(Date.now() - signalledAt).toBeLessThan(5000);
    expectValidStream(ran.events);
    expect(ran.events.at(-1)).toMatchObject({ outcome: 'cancelled', state: 'FINISHED' });
  });

  it('exits 1 on a rejected key and never prints the key', async () => {
    const { code, events, stdout, stderr } = await run('bad key please');
    expect(code).toBe(1);
    expectValidStream(events);
    expect(stdout + stderr).not.toContain(KEY);
    expect(events.at(-1)?.type === 'run.finished' && events.at(-1)).toMatchObject({
      error: expect.stringMatching(/rejected the API key/),
    });
  });

  it('prints the progress on stderr and only the answer on stdout without --jsonl', async () => {
    const { code, stdout, stderr } = await workbench([
      'run',
      '--agent',
      'toolcall',
      '--config',
      configFile,
      'say hello',
    ]);
    expect(code).toBe(0);
    // `workbench run TASK > out.txt` keeps the answer (create_chat_completion's response)
    expect(stdout).toBe('Hello!\n');
    expect(stderr).toMatch(/▶ run .*toolcall on gpt-cli/);
    expect(stderr).toMatch(/✓ terminate/);
    expect(stderr).toMatch(/■ finished after 2 steps/);
    expect(stderr).not.toContain('Hello!\n■');
  });

  it('applies the [llm.NAME] profile of the agent (the original never used them)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-profile-'));
    const file = join(dir, 'config.toml');
    writeFileSync(
      file,
      [
        '[llm]',
        'model = "gpt-default"',
        `base_url = "${server.baseUrl}"`,
        `api_key = "${KEY}"`,
        '',
        '[llm.toolcall]',
        'model = "gpt-for-toolcall"',
        'temperature = 0.2',
        '',
      ].join('\n'),
    );
    const before = server.requests.length;
    const { code, events } = await workbench([
      'run',
      '--jsonl',
      '--agent',
      'toolcall',
      '--config',
      file,
      'say hello',
    ]);
    expect(code).toBe(0);
    expect(events[0]).toMatchObject({ type: 'run.started', model: 'gpt-for-toolcall' });
    const sent = server.requests.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    for (const request of sent) {
      expect(request.model).toBe('gpt-for-toolcall');
      expect(request.body['temperature']).toBe(0.2);
    }
  });

  it('L12: exits 2 for each of 10 invalid configs, naming the key', async () => {
    const cases: [string, RegExp][] = [
      ['[llm]\nbase_url = "ftp://example.com"\n', /llm\.base_url/],
      ['[llm]\ntemperature = 2.5\n', /llm\.temperature/],
      ['[llm]\ntemperature = -1\n', /llm\.temperature/],
      ['[llm]\nmodel = ""\n', /llm\.model/],
      [`[llm]\napi_key = "${'k'.repeat(10_000)}"\n`, /llm\.api_key/],
      ['[llm]\nmax_tokens = 0\n', /llm\.max_tokens/],
      ['[llm]\nmodle = "gpt-4o"\n', /modle/],
      ['[llm.toolcall]\ntemperature = "hot"\n', /llm\.toolcall\.temperature/],
      ['[agent.toolcall]\nmax_steps = 0\n', /agent\.toolcall\.max_steps/],
      ['[agent.toolcall]\ntool_choice = "sometimes"\n', /agent\.toolcall\.tool_choice/],
      ['[llm\nmodel = "x"\n', /line 1|TOML|parse/i],
    ];
    const dir = mkdtempSync(join(tmpdir(), 'wb-l12-'));
    for (const [index, [text, key]] of cases.entries()) {
      const file = join(dir, `config-${index}.toml`);
      writeFileSync(file, text);
      const { code, stdout, stderr } = await workbench([
        'run',
        '--jsonl',
        '--agent',
        'toolcall',
        '--config',
        file,
        'x',
      ]);
      expect(code, text).toBe(2);
      expect(stdout, text).toBe('');
      expect(stderr, text).toMatch(key);
      expect(stderr, text).not.toContain('k'.repeat(100));
    }
  }, 180_000); // ten CLI processes one after another: ~25 s idle, over 60 s on a busy machine

  it('exits 2 naming the file, the key and the problem for a bad config', async () => {
    const bad = join(mkdtempSync(join(tmpdir(), 'wb-bad-')), 'config.toml');
    writeFileSync(bad, '[llm]\nmodel = "m"\ntemperature = 5\n');
    const { code, stderr, stdout } = await workbench(['run', '--jsonl', '--config', bad, 'x']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(bad);
    expect(stderr).toMatch(/llm\.temperature \(line 3\)/);
  });
});
