/**
 * The sandbox MCP server over streamable HTTP (issue 30 item 1), on the real Docker
 * engine, called by the MCP TypeScript SDK's client and by the workbench's own mcp agent:
 * bash runs in the session's container (not on this host), the calls are steps of a run
 * in the history with checkpoints, a step's files can be forked into a new session, a
 * named run gathers several sessions, the token and loopback rules hold, and
 * `[sandbox] max_containers` holds across sessions.
 */
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RunEvent } from '@shared/events';
import { ScriptedLlm } from '../llm/scripted-llm';
import { createRuntime, type Runtime } from '../runtime';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../sandbox/testing/docker-env';
import { containersOf, docker as dockerCli } from '../sandbox/testing/sandbox-fixture';
import { createSandboxMcpHttpHandler, type SandboxMcpHttpHandler } from './sandbox-mcp-http';
import { SandboxRun } from './sandbox-run';

const docker = await probeDocker();
const TOKEN = 'sandbox-mcp-test-token-0123456789';

interface Fixture {
  runtime: Runtime;
  handler: SandboxMcpHttpHandler;
  server: Server;
  url: string;
  events: RunEvent[];
}
const fixtures: Fixture[] = [];
const clients: Client[] = [];

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  for (const f of fixtures) {
    await f.handler.close();
    await f.runtime.dispose();
    await new Promise<void>((resolve) => f.server.close(() => resolve()));
    expect(await containersOf(f.runtime.services.sandboxes)).toEqual([]);
  }
});

async function fixture(sandbox = ''): Promise<Fixture> {
  const home = mkdtempSync(join(tmpdir(), 'wb-sandbox-mcp-'));
  writeFileSync(
    join(home, 'config.toml'),
    `[llm]\nmodel = "scripted"\napi_key = "sk-test-sandbox-mcp"\n\n[sandbox]\nimage = "${LOCAL_SANDBOX_IMAGE}"\n${sandbox}`,
  );
  const runtime = createRuntime({ home, env: {} });
  const handler = createSandboxMcpHttpHandler({
    host: runtime,
    isToken: (given) => given === TOKEN,
  });
  const server = createServer((req, res) => {
    if (!handler.handle(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const events: RunEvent[] = [];
  runtime.runs.onEvent((e) => events.push(e));
  const f = { runtime, handler, server, url: `http://127.0.0.1:${port}/mcp/sandbox`, events };
  fixtures.push(f);
  return f;
}

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'ts-sdk-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}`, ...headers } },
    }),
  );
  clients.push(client);
  return client;
}

/** A client that ends its session (DELETE) as well-behaved clients do, then closes. */
async function disconnect(client: Client): Promise<void> {
  await (client.transport as StreamableHTTPClientTransport).terminateSession();
  await client.close();
}

function text(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = result.content as { type: string; text?: string }[];
  return content.map((c) => c.text ?? '').join('');
}

function runIdOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result._meta as Record<string, string>)['workbench/runId']!;
}

describe.skipIf(!docker.available)('the sandbox MCP server over streamable HTTP', () => {
  it("runs the TS SDK client's calls in the container and records them as a run with checkpoints; a step forks", async () => {
    const f = await fixture();
    const client = await connect(f.url);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'bash',
      'python_execute',
      'read_file',
      'str_replace_editor',
      'write_file',
    ]);

    const marker = `marker-${Date.now()}`;
    const where = await client.callTool({
      name: 'bash',
      arguments: { command: `echo ${marker} > /tmp/where; cat /etc/hostname` },
    });
    // The command ran in this session's container (its file is there), not on this host.
    expect(text(where)).not.toContain(hostname());
    const ids = await containersOf(f.runtime.services.sandboxes);
    expect(ids).toHaveLength(1);
    expect((await dockerCli('exec', ids[0]!, 'cat', '/tmp/where')).trim()).toBe(marker);
    expect(existsSync('/tmp/where') && readFileSync('/tmp/where', 'utf8').includes(marker)).toBe(
      false,
    );

    const wrote = await client.callTool({
      name: 'write_file',
      arguments: { path: '/workspace/notes/a.txt', content: 'written over MCP\n' },
    });
    expect(wrote.isError).toBe(false);
    const py = await client.callTool({
      name: 'python_execute',
      arguments: { code: "print(open('/workspace/notes/a.txt').read().upper())" },
    });
    expect(text(py)).toContain('WRITTEN OVER MCP');
    const bad = await client.callTool({ name: 'read_file', arguments: { path: '/etc/passwd' } });
    expect(bad.isError).toBe(true);

    const runId = runIdOf(wrote);
    await disconnect(client);
    await until(() => f.events.some((e) => e.runId === runId && e.type === 'run.finished'));
    const history = f.runtime.runs.history.read(runId)!.events;
    const started = history.find((e) => e.type === 'run.started');
    expect(started).toMatchObject({
      agent: 'sandbox',
      task: 'MCP sandbox session (HTTP): ts-sdk-test',
    });
    const calls = history.flatMap((e) =>
      e.type === 'tool.finished' ? [[e.step, e.name, e.ok]] : [],
    );
    expect(calls).toEqual([
      [1, 'bash', true],
      [2, 'write_file', true],
      [3, 'python_execute', true],
      [4, 'read_file', false],
    ]);
    expect(history.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'finished', steps: 4 });
    expect(f.runtime.runs.checkpointsOf(runId).map((c) => c.step)).toEqual([1, 2, 3, 4]);

    // Fork step 2's files into a fresh session (`workbench mcp-sandbox --fork RUN --at 2`).
    const fork = await SandboxRun.start(f.runtime, {
      title: 'fork',
      fork: { runId, step: 2 },
    });
    const read = await fork.call('read_file', { path: '/workspace/notes/a.txt' });
    expect(read.output).toBe('written over MCP\n');
    await fork.close();
    expect(f.runtime.runs.get(fork.runId)?.forkOf).toEqual({ runId, step: 2 });
  });

  it('refuses a missing or wrong token and a foreign origin; gathers sessions naming one run', async () => {
    const f = await fixture();
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'x', version: '1' },
      },
    };
    const post = (headers: Record<string, string>) =>
      fetch(f.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(init),
      });
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: 'Bearer wrong-token-wrong-token' })).status).toBe(401);
    expect(
      (await post({ authorization: `Bearer ${TOKEN}`, origin: 'http://evil.example' })).status,
    ).toBe(403);

    const a = await connect(f.url, { 'x-workbench-run': 'my-agent' });
    const b = await connect(`${f.url}?run=my-agent`);
    const one = await a.callTool({
      name: 'bash',
      arguments: { command: 'echo one > /workspace/one' },
    });
    const two = await b.callTool({ name: 'bash', arguments: { command: 'cat /workspace/one' } });
    expect(runIdOf(one)).toBe(runIdOf(two));
    expect(text(two)).toContain('one');
    expect(f.runtime.runs.get(runIdOf(one))?.task).toBe('my-agent');
    await disconnect(a);
    expect(f.runtime.runs.isRunning(runIdOf(one))).toBe(true); // b still uses it
    await disconnect(b);
    await until(() => !f.runtime.runs.isRunning(runIdOf(one)));
  });

  it('holds [sandbox] max_containers across sessions: the second waits for the first', async () => {
    const f = await fixture('max_containers = 1\n');
    const a = await connect(f.url);
    const b = await connect(f.url);
    await a.callTool({ name: 'bash', arguments: { command: 'echo a' } });
    let bDone = false;
    const bCall = b
      .callTool({ name: 'bash', arguments: { command: 'echo b' } }, undefined, { timeout: 120_000 })
      .then((r) => ((bDone = true), r));
    await new Promise((r) => setTimeout(r, 2_000));
    expect(bDone).toBe(false);
    expect(await containersOf(f.runtime.services.sandboxes)).toHaveLength(1);
    const queued = f.events.find(
      (e) =>
        e.type === 'sandbox.changed' &&
        e.status === 'queued' &&
        /max_containers/.test(e.progress ?? ''),
    );
    expect(queued).toBeDefined();
    await disconnect(a); // its run ends; its sandbox is free for b
    expect(text(await bCall)).toContain('b');
    expect((await containersOf(f.runtime.services.sandboxes)).length).toBeLessThanOrEqual(1);
  });

  it("the workbench's own mcp agent calls it (config [mcp.servers.sandbox], type http, with the token header)", async () => {
    const f = await fixture();
    const home = mkdtempSync(join(tmpdir(), 'wb-sandbox-mcp-agent-'));
    writeFileSync(
      join(home, 'config.toml'),
      [
        '[llm]',
        'model = "scripted"',
        'api_key = "sk-test-mcp-agent"',
        '[mcp.servers.sandbox]',
        'type = "http"',
        `url = "${f.url}"`,
        `headers = { Authorization = "Bearer ${TOKEN}" }`,
      ].join('\n'),
    );
    const llm = new ScriptedLlm((request) => {
      const done = request.messages.filter((m) => m.role === 'tool').length;
      if (done === 0)
        return {
          toolCalls: [
            { name: 'mcp_sandbox_bash', args: { command: 'echo from-agent; cat /etc/hostname' } },
          ],
        };
      return { toolCalls: [{ name: 'terminate', args: { status: 'success' } }] };
    });
    const agentRuntime = createRuntime({
      home,
      env: {},
      createLlm: () => llm,
      sweepAtStart: false,
    });
    try {
      const events: RunEvent[] = [];
      agentRuntime.runs.onEvent((e) => events.push(e));
      const handle = agentRuntime.runs.start({ agent: 'mcp', task: 'use the sandbox' });
      expect((await handle.done).outcome).toBe('finished');
      const finished = events.find(
        (e) => e.type === 'tool.finished' && e.name === 'mcp_sandbox_bash',
      );
      expect(finished).toMatchObject({ ok: true });
      const output = finished?.type === 'tool.finished' ? finished.output : '';
      expect(output).toContain('from-agent');
      expect(output).not.toContain(hostname());
    } finally {
      await agentRuntime.dispose();
    }
    // the call is a step of a sandbox run in the sandbox server's history
    await until(() =>
      f.runtime.runs
        .list()
        .some(
          (s) =>
            s.agent === 'sandbox' &&
            s.task.includes('workbench') &&
            s.steps === 1 &&
            s.finishedAt !== undefined,
        ),
    );
  });
});

async function until(check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}
