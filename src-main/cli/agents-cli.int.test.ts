/**
 * Agent definitions from the CLI (docs/agents.md, issue 28): a definition file outside
 * WORKBENCH_HOME runs with `--agent PATH`, and the model receives its rendered prompts
 * and exactly the tools its patterns pick (built-in names, an MCP server's `server/tool`
 * with a wildcard); a definition with an unknown tool, a bad template variable or a
 * TOML error exits 2 naming the file, line and fix, and records no run; `agents list`
 * shows the built-in agents and the user's with their versions.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchGrid } from '@shared/domain/batch';
import type { RunEvent } from '@shared/events';

type RunStartedEvent = Extract<RunEvent, { type: 'run.started' }>;
import { parseScenarioFile, scenarioScript } from '../runtime/llm/testing/scenario-script';
import { ScriptedOpenAiServer } from '../runtime/llm/testing/scripted-openai-server';
import { testServerArgs } from '../runtime/tools/mcp/testing/test-mcp-process';
import { runWorkbench } from './testing/workbench-child';

const WORKBENCH = fileURLToPath(new URL('../../bin/workbench.js', import.meta.url));

const scenarios = parseScenarioFile(
  JSON.stringify({
    scenarios: [
      {
        name: 'hello',
        match: 'say hello',
        turns: [
          { toolCalls: [{ name: 'create_chat_completion', arguments: { response: 'Hello!' } }] },
          { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] },
        ],
      },
      {
        name: 'answer',
        match: 'add two numbers',
        turns: [
          { toolCalls: [{ name: 'mcp_tm_add', arguments: { a: 2, b: 3 } }] },
          { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] },
        ],
      },
    ],
  }),
);

let server: ScriptedOpenAiServer;
let dir: string;
let configFile: string;

beforeAll(async () => {
  server = new ScriptedOpenAiServer(scenarioScript(scenarios));
  const baseUrl = await server.start();
  dir = mkdtempSync(join(tmpdir(), 'wb-agents-cli-'));
  configFile = join(dir, 'config.toml');
  const args = testServerArgs('stdio')
    .map((a) => JSON.stringify(a))
    .join(', ');
  writeFileSync(
    configFile,
    [
      '[llm]',
      'model = "gpt-agents"',
      `base_url = "${baseUrl}"`,
      'api_key = "sk-agents-test"',
      'max_retries = 0',
      '',
      '[mcp.servers.tm]',
      'type = "stdio"',
      `command = ${JSON.stringify(process.execPath)}`,
      `args = [${args}]`,
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await server.close();
});

const DEFINITION = `name = "adder"
description = "Adds with the test server."
tools = ["create_chat_completion", "tm/add", "tm/who*", "terminate"]
terminate_tools = ["terminate"]

system_prompt = '''
You add numbers. The workspace is {{work_dir}}; I am {{agent_name}}.
Tools:
{{tools}}'''

next_step_prompt = "Next, from {{mcp_servers}}."

[run]
max_steps = 4
tool_choice = "required"
`;

describe('workbench run --agent FILE', () => {
  it("runs a definition outside WORKBENCH_HOME: the model gets its prompts and exactly its patterns' tools", async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-agents-home-'));
    const file = join(dir, 'adder.toml');
    writeFileSync(file, DEFINITION);
    server.reset();
    const { code, events, stderr } = await runWorkbench(home, [
      'run',
      '--jsonl',
      '--agent',
      file,
      '--config',
      configFile,
      'add two numbers',
    ]);
    expect(code, stderr).toBe(0);
    const started = events[0] as RunStartedEvent;
    expect(started).toMatchObject({ type: 'run.started', agent: 'adder', model: 'gpt-agents' });
    expect(started.agentDefinition).toMatchObject({
      source: 'file',
      path: file,
      version: 1,
      definition: {
        name: 'adder',
        tools: ['create_chat_completion', 'tm/add', 'tm/who*', 'terminate'],
      },
    });
    const first = server.requests[0]!.body as {
      messages: { role: string; content: string }[];
      tools: { function: { name: string } }[];
      tool_choice: string;
    };
    expect(first.tools.map((t) => t.function.name)).toEqual([
      'create_chat_completion',
      'terminate',
      'mcp_tm_add',
      'mcp_tm_whoami',
    ]);
    expect(first.tool_choice).toBe('required');
    expect(first.messages[0]).toEqual({
      role: 'system',
      content:
        'You add numbers. The workspace is /workspace; I am adder.\nTools:\n- create_chat_completion\n- mcp_tm_add\n- mcp_tm_whoami',
    });
    expect(first.messages.at(-1)).toEqual({ role: 'user', content: 'Next, from tm.' });
    // the MCP tool ran against the server
    const added = events.find((e) => e.type === 'tool.finished' && e.name === 'mcp_tm_add');
    expect(added).toMatchObject({ output: expect.stringContaining('5') });
  }, 60_000);

  it.each([
    ['an unknown tool', 'tools = ["bash", "nope"]', /bad\.toml:\d+: tools: unknown tool "nope"/],
    [
      'a bad template variable',
      'system_prompt = "Hello {{workdir}}"',
      /bad\.toml:\d+: system_prompt: unknown template variable \{\{workdir\}\}: the variables are/,
    ],
    ['a TOML error', 'system_prompt = "unclosed', /bad\.toml:\d+: \(file\): not valid TOML/],
  ])('exits 2 for %s, naming file and line, and records nothing', async (_, line, message) => {
    const home = mkdtempSync(join(tmpdir(), 'wb-agents-bad-'));
    const base = ['name = "bad"', 'tools = ["terminate"]', 'system_prompt = "You are bad."'];
    const key = line.split(' ')[0]!;
    const text = [...base.filter((l) => !l.startsWith(key)), line].join('\n');
    const file = join(dir, 'bad.toml');
    writeFileSync(file, `${text}\n`);
    const before = server.requests.length;
    const { code, stderr, events } = await runWorkbench(home, [
      'run',
      '--jsonl',
      '--agent',
      file,
      '--config',
      configFile,
      'add two numbers',
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(events).toEqual([]);
    expect(server.requests.length).toBe(before);
    const index = JSON.parse(readFileSync(join(home, 'runs', 'index.json'), 'utf8')) as {
      runs: unknown[];
    };
    expect(index.runs).toEqual([]);
  });
});

describe('workbench agents', () => {
  it('lists built-in and user agents with versions; a saved change is a new version', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-agents-list-'));
    const made = await runWorkbench(home, [
      'agents',
      'new',
      'mine',
      '--from',
      'manus',
      '-c',
      configFile,
    ]);
    expect(made.code, made.stderr).toBe(0);
    const file = join(home, 'agents', 'mine.toml');
    const json = () =>
      JSON.parse(
        execFileSync(process.execPath, [WORKBENCH, 'agents', 'list', '--json', '-c', configFile], {
          env: { ...process.env, WORKBENCH_HOME: home },
        }).toString(),
      ) as { name: string; source: string; version?: number }[];
    const first = json();
    expect(first.map((e) => [e.name, e.source, e.version])).toEqual([
      ['manus', 'builtin', 1],
      ['swe', 'builtin', 1],
      ['browser', 'builtin', 1],
      ['mcp', 'builtin', 1],
      ['toolcall', 'builtin', 1],
      ['mine', 'home', 1],
    ]);
    writeFileSync(file, readFileSync(file, 'utf8').replace('You are Manus', 'You are Mine'));
    expect(json().at(-1)).toMatchObject({ name: 'mine', version: 2 });
    // the first version stays runnable and exportable as mine@1
    const exported = await runWorkbench(home, [
      'agents',
      'export',
      'mine@1',
      '-o',
      join(home, 'v1.toml'),
      '-c',
      configFile,
    ]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(readFileSync(join(home, 'v1.toml'), 'utf8')).toContain('You are Manus');
  }, 60_000);
});

describe('versions of one agent', () => {
  it('runs two versions; runs diff names the prompt change; a batch over both has one row per version', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-agents-versions-'));
    const cli = (args: string[]) => runWorkbench(home, [...args, '-c', configFile]);
    expect((await cli(['agents', 'new', 'helper', '--from', 'toolcall'])).code).toBe(0);
    const file = join(home, 'agents', 'helper.toml');
    const v1 = await cli(['run', '--jsonl', '--agent', 'helper', 'say hello']);
    expect(v1.code, v1.stderr).toBe(0);
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('You are a helpful agent', 'You are a careful agent'),
    );
    const v2 = await cli(['run', '--jsonl', '--agent', 'helper', 'say hello']);
    expect(v2.code, v2.stderr).toBe(0);
    const started = [v1, v2].map((r) => r.events[0] as RunStartedEvent);
    expect(started.map((e) => e.agentDefinition?.version)).toEqual([1, 2]);
    expect(started[1]!.agentDefinition?.definition.system_prompt).toContain('careful');

    const diff = execFileSync(
      process.execPath,
      [WORKBENCH, 'runs', 'diff', started[0]!.runId, started[1]!.runId],
      { env: { ...process.env, WORKBENCH_HOME: home } },
    ).toString();
    expect(diff).toMatch(/Agent definition differs: helper v1 \([0-9a-f]{8}\) → helper v2/);
    expect(diff).toContain('system_prompt:');
    expect(diff).toContain('- You are a helpful agent that works by calling tools.');
    expect(diff).toContain('+ You are a careful agent that works by calling tools.');

    // a batch over both versions: one grid row per version, each run on its own version
    const tasks = join(home, 'tasks.jsonl');
    writeFileSync(tasks, `${JSON.stringify({ task: 'say hello' })}\n`);
    const batch = await cli([
      'batch',
      tasks,
      '--agent',
      'helper@1',
      '--agent',
      'helper@2',
      '--json',
    ]);
    expect(batch.code, batch.stderr).toBe(0);
    const grid = JSON.parse(
      execFileSync(
        process.execPath,
        [WORKBENCH, 'batch', 'show', /batch (\S+)/.exec(batch.stderr)![1]!, '--json'],
        { env: { ...process.env, WORKBENCH_HOME: home } },
      ).toString(),
    ) as BatchGrid;
    expect(grid.tasks.map((t) => [t.task, t.agentLabel])).toEqual([
      ['say hello', 'helper@1'],
      ['say hello', 'helper@2'],
    ]);
    expect(grid.cells.map((row) => row.map((c) => c.runs.length))).toEqual([[1], [1]]);
    const text = execFileSync(process.execPath, [WORKBENCH, 'batch', 'show', grid.batchId], {
      env: { ...process.env, WORKBENCH_HOME: home },
    }).toString();
    expect(text).toContain('1. [helper@1] say hello');
    expect(text).toContain('2. [helper@2] say hello');

    // fork the v1 run at step 1 with v2: the next steps run with the new prompt
    const fork = await cli([
      'runs',
      'fork',
      started[0]!.runId,
      '--at',
      '1',
      '--agent',
      'helper@2',
      '--jsonl',
    ]);
    expect(fork.code, fork.stderr).toBe(0);
    const forked = fork.events[0] as RunStartedEvent;
    expect(forked).toMatchObject({
      agent: 'helper',
      forkOf: { runId: started[0]!.runId, step: 1 },
    });
    expect(forked.agentDefinition).toMatchObject({ version: 2 });
    const forkRequest = server.requests.at(-1)!.body as {
      messages: { role: string; content: string }[];
    };
    expect(forkRequest.messages[0]!.content).toContain('You are a careful agent');
    // the restored context: the parent's first answer is in the fork's request
    expect(JSON.stringify(forkRequest.messages)).toContain('Hello!');

    // v1 still runs as helper@1, exactly as it was
    const again = await cli(['run', '--jsonl', '--agent', 'helper@1', 'say hello']);
    expect((again.events[0] as RunStartedEvent).agentDefinition).toMatchObject({
      version: 1,
      hash: started[0]!.agentDefinition!.hash,
    });
  }, 90_000);
});
