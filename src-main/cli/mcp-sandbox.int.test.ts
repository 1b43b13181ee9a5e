/**
 * `workbench mcp-sandbox` (stdio) and serve's /mcp/sandbox (streamable HTTP) as outside
 * clients use them (issue 30 item 1): the MCP Python SDK over both transports, the MCP
 * TypeScript SDK over stdio, and the workbench's own mcp agent with the sandbox as its
 * `--server-command`. Each call runs in the Docker sandbox (the container's host name,
 * a file that is not on this host) and is recorded as a run in the history. The built
 * CLI is used (npm run build).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { RunEvent } from '@shared/events';
import { RunStore } from '../runtime/runs/run-store';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../runtime/sandbox/testing/docker-env';
import { probeTestPython } from '../runtime/util/testing/python-env';

const root = fileURLToPath(new URL('../..', import.meta.url));
const workbench = join(root, 'bin/workbench.js');
const docker = await probeDocker();
const python = probeTestPython(['mcp']);
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
});

function home(extra = ''): string {
  const dir = mkdtempSync(join(tmpdir(), 'wb-mcp-sandbox-cli-'));
  writeFileSync(join(dir, 'config.toml'), `[sandbox]\nimage = "${LOCAL_SANDBOX_IMAGE}"\n${extra}`);
  return dir;
}

/** Calls bash twice (a marker file in /tmp, the host name) and prints what came back. */
const PYTHON_CLIENT = `
import asyncio, json, os, sys
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

async def use(read, write):
    async with ClientSession(read, write) as session:
        await session.initialize()
        tools = await session.list_tools()
        marker = sys.argv[3]
        r = await session.call_tool("bash", {"command": f"echo {marker} > /tmp/{marker}; cat /tmp/{marker}; cat /etc/hostname"})
        print(json.dumps({"tools": sorted(t.name for t in tools.tools), "text": r.content[0].text,
                          "meta": getattr(r, "meta", None)}, default=str), flush=True)

async def main():
    if sys.argv[1] == "stdio":
        params = StdioServerParameters(command=sys.argv[2].split()[0], args=sys.argv[2].split()[1:], env=dict(os.environ))
        async with stdio_client(params) as (read, write):
            await use(read, write)
    else:
        client = create_mcp_http_client(headers={"Authorization": "Bearer " + os.environ["TOKEN"]})
        async with client:
            async with streamable_http_client(sys.argv[2], http_client=client) as (read, write):
                await use(read, write)

asyncio.run(main())
`;

async function runPython(args: string[], env: NodeJS.ProcessEnv) {
  const script = join(mkdtempSync(join(tmpdir(), 'wb-py-')), 'client.py');
  writeFileSync(script, PYTHON_CLIENT);
  const child = spawn(python.python!, [script, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code, err).toBe(0);
  return JSON.parse(out.trim().split('\n').at(-1)!) as {
    tools: string[];
    text: string;
    meta: Record<string, unknown> | null;
  };
}

function sandboxRuns(dir: string) {
  const store = new RunStore(join(dir, 'runs'));
  try {
    return store
      .list()
      .filter((s) => s.agent === 'sandbox')
      .map((s) => ({ summary: s, events: store.read(s.runId)!.events }));
  } finally {
    store.close();
  }
}

const TOOLS = ['bash', 'python_execute', 'read_file', 'str_replace_editor', 'write_file'];

describe.skipIf(!docker.available)('workbench mcp-sandbox and serve /mcp/sandbox', () => {
  it.skipIf(!python.available)(
    'the MCP Python SDK over stdio: bash runs in the container and the call is a run in the history',
    async () => {
      const dir = home();
      const marker = `wb-py-stdio-${Date.now()}`;
      const result = await runPython(
        ['stdio', `${process.execPath} ${workbench} mcp-sandbox`, marker],
        {
          ...process.env,
          WORKBENCH_HOME: dir,
        },
      );
      expect(result.tools).toEqual(TOOLS);
      expect(result.text).toBe(`${marker}\nsandbox\n`); // the policy's container host name
      expect(hostname()).not.toBe('sandbox');
      expect(existsSync(`/tmp/${marker}`)).toBe(false); // not written on this host
      const [run] = sandboxRuns(dir);
      expect(run?.summary).toMatchObject({ steps: 1, task: 'MCP sandbox session (stdio): mcp' });
      expect(run?.summary.runId).toBe(result.meta?.['workbench/runId']);
      expect(run?.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'finished' });
      expect(run?.events.find((e) => e.type === 'tool.started')).toMatchObject({
        name: 'bash',
        step: 1,
      });
    },
  );

  it.skipIf(!python.available)(
    "the MCP Python SDK over streamable HTTP at serve's /mcp/sandbox, with the serve token",
    async () => {
      const dir = home();
      const token = 'serve-token-for-mcp-sandbox-test';
      const serve = spawn(process.execPath, [workbench, 'serve', '--port', '0'], {
        env: { ...process.env, WORKBENCH_HOME: dir, WORKBENCH_SERVE_TOKEN: token },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(serve);
      let err = '';
      serve.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const url = await new Promise<string>((resolve) =>
        serve.stdout.on('data', (d: Buffer) => resolve(d.toString().trim())),
      );
      const mcpUrl = `${new URL(url).origin}/mcp/sandbox`;
      const marker = `wb-py-http-${Date.now()}`;
      const result = await runPython(['http', mcpUrl, marker], { ...process.env, TOKEN: token });
      expect(result.tools).toEqual(TOOLS);
      expect(result.text).toBe(`${marker}\nsandbox\n`);
      expect(existsSync(`/tmp/${marker}`)).toBe(false);
      expect(err).toContain(`${mcpUrl} with the header "Authorization: Bearer`);
      serve.kill('SIGTERM');
      await new Promise((resolve) => serve.on('close', resolve));
      const [run] = sandboxRuns(dir);
      expect(run?.summary).toMatchObject({ steps: 1, task: 'MCP sandbox session (HTTP): mcp' });
      expect(run?.summary.runId).toBe(result.meta?.['workbench/runId']);
    },
  );

  it('the MCP TypeScript SDK over stdio; --fork refuses a step without a checkpoint', async () => {
    const dir = home();
    const client = new Client({ name: 'ts-stdio', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [workbench, 'mcp-sandbox'],
        env: { ...(process.env as Record<string, string>), WORKBENCH_HOME: dir },
        stderr: 'pipe',
      }),
    );
    const wrote = await client.callTool({
      name: 'write_file',
      arguments: { path: 'hello.txt', content: 'hi\n' },
    });
    expect(wrote.isError).toBe(false);
    const listed = await client.callTool({ name: 'bash', arguments: { command: 'ls /workspace' } });
    expect((listed.content as { text: string }[])[0]!.text).toContain('hello.txt');
    await client.close();
    await until(() => sandboxRuns(dir)[0]?.summary.finishedAt !== undefined);
    const [run] = sandboxRuns(dir);
    expect(run?.summary).toMatchObject({ steps: 2, task: 'MCP sandbox session (stdio): ts-stdio' });

    const refused = spawn(
      process.execPath,
      [workbench, 'mcp-sandbox', '--fork', run!.summary.runId, '--at', '9'],
      { env: { ...process.env, WORKBENCH_HOME: dir }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    refused.stderr.on('data', (d: Buffer) => (err += d.toString()));
    expect(await new Promise((resolve) => refused.on('close', resolve))).toBe(2);
    expect(err).toContain('has no checkpoint at step 9 (checkpoints: steps 1, 2)');
  });

  it("the workbench's mcp agent with the sandbox as its --server-command", async () => {
    const dir = home('[llm]\napi_type = "scripted"\nscenario = "scenario.json"\n');
    writeFileSync(
      join(dir, 'scenario.json'),
      JSON.stringify({
        scenarios: [
          {
            name: 'sandbox',
            turns: [
              {
                toolCalls: [
                  {
                    name: 'mcp_cli_bash',
                    arguments: { command: 'echo via-agent; cat /etc/hostname' },
                  },
                ],
              },
              { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] },
            ],
          },
        ],
      }),
    );
    const child = spawn(
      process.execPath,
      [
        workbench,
        'run',
        '--agent',
        'mcp',
        '--server-command',
        // an stdio server gets only the SDK's default environment: WORKBENCH_HOME is given
        `env WORKBENCH_HOME=${dir} ${process.execPath} ${workbench} mcp-sandbox`,
        '--jsonl',
        'use the sandbox',
      ],
      { env: { ...process.env, WORKBENCH_HOME: dir }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    expect(await new Promise((resolve) => child.on('close', resolve)), err).toBe(0);
    const events = out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as RunEvent);
    const finished = events.find((e) => e.type === 'tool.finished' && e.name === 'mcp_cli_bash');
    expect(finished).toMatchObject({ ok: true });
    expect(finished?.type === 'tool.finished' && finished.output).toContain('via-agent\nsandbox');
    await until(() => sandboxRuns(dir)[0]?.summary.finishedAt !== undefined);
    expect(sandboxRuns(dir)[0]?.summary).toMatchObject({
      steps: 1,
      task: 'MCP sandbox session (stdio): agent-workbench',
    });
  });
});

async function until(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}
