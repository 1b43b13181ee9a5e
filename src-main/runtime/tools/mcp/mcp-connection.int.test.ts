/**
 * MCP connections against the real test server: a server that dies gives a clear tool
 * error and is reconnected on the next call; unreachable servers, slow tools and
 * cancelled runs give errors that say what happened; a session's close ends its servers.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Session } from '../../session/session';
import type { Tool, ToolContext } from '../tool';
import { loadMcpTools } from './mcp-toolset';
import { McpConnectionPool } from './mcp-pool';
import {
  startNetworkServer,
  stdioServerSettings,
  type RunningMcpServer,
} from './testing/test-mcp-process';

const workspace = mkdtempSync(join(tmpdir(), 'wb-mcp-'));
const sessions: Session[] = [];
const servers: RunningMcpServer[] = [];

afterEach(async () => {
  await Promise.allSettled(sessions.splice(0).map((s) => s.close()));
  await Promise.allSettled(servers.splice(0).map((s) => s.kill()));
});

function session(id: string): Session {
  const created = new Session(id, workspace);
  sessions.push(created);
  return created;
}

function context(signal = new AbortController().signal): ToolContext {
  return { signal, runId: 'r', agent: 'mcp', step: 1, toolCallId: 'c', emit: () => undefined };
}

function pick(tools: Tool[], name: string): Tool {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name} in ${tools.map((t) => t.name).join(', ')}`);
  return tool;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('MCP connections (real server processes)', () => {
  it('a stdio server that dies mid-call gives a clear error, and the next call restarts it', async () => {
    const { tools } = await loadMcpTools({
      session: session('crash'),
      servers: { t: stdioServerSettings() },
    });
    const before = await pick(tools, 'mcp_t_whoami').execute({}, context());
    const pidBefore = (JSON.parse(before.output) as { pid: number }).pid;

    const crashed = await pick(tools, 'mcp_t_crash').execute({}, context());
    expect(crashed.error).toMatch(
      /^Lost MCP server "t" \(stdio: .*\) while running tool "crash": the server process exited/,
    );
    expect(crashed.error).toContain('test server: crashing on purpose');
    expect(crashed.error).toContain('It will be restarted on the next call');

    const after = await pick(tools, 'mcp_t_whoami').execute({}, context());
    expect(after.error).toBeUndefined();
    expect(after.output).toMatch(
      /^\(The connection to MCP server "t" .* had been lost: the server process exited/,
    );
    const pidAfter = (JSON.parse(after.output.split('\n').at(-1)!) as { pid: number }).pid;
    expect(pidAfter).not.toBe(pidBefore);
    const next = await pick(tools, 'mcp_t_add').execute({ a: 1, b: 2 }, context());
    expect(next).toEqual({ output: '3' }); // the restart is reported once
  });

  it('an HTTP server that goes away gives a clear error; it is reconnected once it is back', async () => {
    const first = await startNetworkServer('http');
    servers.push(first);
    const { tools } = await loadMcpTools({
      session: session('http-down'),
      servers: { web: first.settings },
    });
    expect((await pick(tools, 'mcp_web_counter').execute({}, context())).output).toMatch(/^call 1/);

    await first.kill();
    const down = await pick(tools, 'mcp_web_counter').execute({}, context());
    expect(down.error).toMatch(
      /^Lost MCP server "web" \(http: http:\/\/127\.0\.0\.1:\d+\/mcp\) while running tool "counter": .*ECONNREFUSED/,
    );
    expect(down.error).toContain('The next call to one of its tools will connect again.');
    const stillDown = await pick(tools, 'mcp_web_counter').execute({}, context());
    expect(stillDown.error).toMatch(
      /^Could not connect to MCP server "web".*Check that the server is running and \[mcp\.servers\.web\] url is right\./,
    );

    const second = await startNetworkServer('http', first.port);
    servers.push(second);
    const back = await pick(tools, 'mcp_web_counter').execute({}, context());
    expect(back.error).toBeUndefined();
    expect(back.output).toMatch(/had been lost: .*\ncall 1 on connection 1$/);
  });

  it('reports servers that cannot start or cannot be reached, naming the config entry', async () => {
    const toolset = await loadMcpTools({
      session: session('bad'),
      servers: {
        missing: stdioServerSettings({ command: '/no/such/binary', args: [] }),
        exits: stdioServerSettings({
          command: process.execPath,
          args: ['-e', 'console.error("boom: bad flag"); process.exit(1)'],
        }),
        nowhere: { type: 'http', url: 'http://127.0.0.1:9/mcp', args: [], env: {}, timeout: 5 },
        fine: stdioServerSettings(),
      },
    });
    const errors = Object.fromEntries(toolset.failures.map((f) => [f.server, f.error]));
    expect(errors['missing']).toMatch(
      /Could not connect to MCP server "missing" \(stdio: \/no\/such\/binary\).*ENOENT.*Check \[mcp\.servers\.missing\] command and args/,
    );
    expect(errors['exits']).toMatch(/Could not connect to MCP server "exits".*boom: bad flag/);
    expect(errors['nowhere']).toMatch(
      /Could not connect to MCP server "nowhere" \(http: http:\/\/127\.0\.0\.1:9\/mcp\)/,
    );
    expect(toolset.servers.map((s) => s.server)).toEqual(['fine']);
    expect(toolset.tools.map((t) => t.name)).toContain('mcp_fine_add');
  });

  it('a tool slower than [mcp.servers.NAME] timeout fails with that key named; the server stays usable', async () => {
    const { tools } = await loadMcpTools({
      session: session('slow'),
      servers: { s: stdioServerSettings({ timeout: 1 }) },
    });
    const started = performance.now();
    const slow = await pick(tools, 'mcp_s_slow').execute({ ms: 5000 }, context());
    expect(performance.now() - started).toBeLessThan(4000);
    expect(slow.error).toMatch(
      /did not answer within 1 s while running tool "slow" \(\[mcp\.servers\.s\] timeout\)/,
    );
    expect(await pick(tools, 'mcp_s_add').execute({ a: 2, b: 2 }, context())).toEqual({
      output: '4',
    });
  });

  it('a cancelled run stops waiting for the tool at once', async () => {
    const { tools } = await loadMcpTools({
      session: session('cancel'),
      servers: { s: stdioServerSettings() },
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = performance.now();
    await expect(
      pick(tools, 'mcp_s_slow').execute({ ms: 10_000 }, context(controller.signal)),
    ).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('server errors and unknown arguments come back as tool errors', async () => {
    const { tools } = await loadMcpTools({
      session: session('errors'),
      servers: { s: stdioServerSettings() },
    });
    expect(await pick(tools, 'mcp_s_fail').execute({}, context())).toEqual({
      output: '',
      error: 'deliberate failure',
    });
    expect(pick(tools, 'mcp_s_add').schema.safeParse({ a: 'one', b: 2 }).success).toBe(false);
    // A call the schema would reject, sent anyway: the server's own check answers.
    const bad = await pick(tools, 'mcp_s_add').execute({ a: 'one' }, context());
    expect(bad.error).toMatch(/validation|Invalid/i);
  });

  it('closing the session ends its stdio servers; changed settings reconnect', async () => {
    const closing = session('close');
    const { tools } = await loadMcpTools({
      session: closing,
      servers: { s: stdioServerSettings() },
    });
    const pid = (
      JSON.parse((await pick(tools, 'mcp_s_whoami').execute({}, context())).output) as {
        pid: number;
      }
    ).pid;
    expect(alive(pid)).toBe(true);
    await closing.close();
    await expect.poll(() => alive(pid), { timeout: 10_000 }).toBe(false);
    const afterClose = await pick(tools, 'mcp_s_whoami').execute({}, context());
    expect(afterClose.error).toMatch(/was closed with its session/);

    const pool = new McpConnectionPool(workspace);
    const a = pool.connection('s', stdioServerSettings());
    expect(pool.connection('s', stdioServerSettings())).toBe(a);
    const b = pool.connection('s', stdioServerSettings({ timeout: 5 }));
    expect(b).not.toBe(a);
    await pool.dispose();
  });
});
