/**
 * `workbench run --agent mcp` as an OpenManus user runs run_mcp.py: the server given on
 * the command line (`--connection sse --server-url URL`), the task read from a file
 * (`file:task.md`), a long tool whose progress is printed, and Ctrl-C: the run ends as
 * cancelled (exit 130) and the server receives the cancellation although the process
 * quits right after the stop (issue 16 items 4 and 6). Against the reference
 * server-everything over SSE, behind a proxy that records what reached it.
 */
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import { startRecordingProxy } from '../runtime/tools/mcp/testing/recording-proxy';
import { startEverything } from '../runtime/tools/mcp/testing/reference-servers';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

describe('workbench run --agent mcp --connection sse --server-url (run_mcp.py habits)', () => {
  it('runs a file: task on the given server, prints progress, and Ctrl-C cancels the tool on the server', async () => {
    const server = await startEverything('sse');
    const proxy = await startRecordingProxy(server.origin);
    cleanups.push(
      () => server.stop(),
      () => proxy.close(),
    );

    const home = mkdtempSync(join(tmpdir(), 'wb-mcp-run-'));
    writeFileSync(
      join(home, 'scenario.json'),
      JSON.stringify({
        scenarios: [
          {
            name: 'long',
            turns: [
              {
                toolCalls: [
                  {
                    name: 'mcp_cli_trigger-long-running-operation',
                    arguments: { duration: 30, steps: 60 },
                  },
                ],
              },
            ],
          },
        ],
      }),
    );
    writeFileSync(
      join(home, 'config.toml'),
      '[llm]\napi_type = "scripted"\nscenario = "scenario.json"\n',
    );
    const task = 'Run the long operation of the server\nand report when it is done.';
    writeFileSync(join(home, 'task.md'), `${task}\n`);

    const child = spawn(
      process.execPath,
      [
        join(root, 'bin/workbench.js'),
        'run',
        '--agent',
        'mcp',
        '--connection',
        'sse',
        '--server-url',
        proxy.url('/sse'),
        '--jsonl',
        'file:task.md',
      ],
      {
        cwd: home,
        env: { ...process.env, WORKBENCH_HOME: home },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    let interrupted = false;
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (!interrupted && stdout.includes('"type":"tool.progress"')) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(interrupted, stderr).toBe(true);
    expect(code, stderr).toBe(130);

    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as RunEvent);
    expect(events[0]).toMatchObject({ type: 'run.started', agent: 'mcp', task });
    expect(events.some((e) => e.type === 'tool.progress' && e.total === 60)).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'cancelled' });

    const call = proxy.messages.find((m) => m.method === 'tools/call');
    expect(call?.params).toMatchObject({ name: 'trigger-long-running-operation' });
    const cancelled = proxy.messages.find((m) => m.method === 'notifications/cancelled');
    expect(cancelled?.params).toMatchObject({ requestId: call!.id });
  });
});

describe('an MCP server given on the command line that does not answer (issue 26 item 11)', () => {
  it('names the flag, not a config key that does not exist, and the header has the model and limit', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-mcp-down-'));
    // a scripted model: the demo model would use the built-in demo MCP server instead
    writeFileSync(
      join(home, 'scenario.json'),
      JSON.stringify({ scenarios: [{ name: 'x', turns: [{ content: 'hi' }] }] }),
    );
    writeFileSync(
      join(home, 'config.toml'),
      '[llm]\napi_type = "scripted"\nscenario = "scenario.json"\n',
    );
    const spare = createServer();
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
    const { port } = spare.address() as AddressInfo;
    await new Promise((resolve) => spare.close(resolve));
    const nobody = `http://127.0.0.1:${port}/sse`; // nothing listens there now
    const child = spawn(
      process.execPath,
      [join(root, 'bin/workbench.js'), 'run', '--agent', 'mcp', '--server-url', nobody, 'hi'],
      { env: { ...process.env, WORKBENCH_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, out).toBe(1);
    expect(out).toMatch(
      /Check that the server is running and the --server-url given on the command line/,
    );
    expect(out).not.toMatch(/\[mcp\.servers\.cli\]/);
    expect(out).toMatch(/▶ run \S+: mcp on \S+.* \(max 20 steps\)/);
    expect(out).toMatch(/ECONNREFUSED/);
    expect(out).not.toMatch(/on unknown|max 0 steps/);
  });
});
