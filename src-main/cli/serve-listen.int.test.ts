/**
 * `workbench serve` as a real process, about where it listens (issue 25 item 9): a port
 * in use is one line and exit 2 (it was a raw EADDRINUSE stack, exit 1), and a bind
 * beyond loopback warns that the workbench is now reachable from the network.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const running: ChildProcess[] = [];
const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) server.close();
  await Promise.all(running.splice(0).map(stop));
});

function serve(args: string[]): ChildProcess {
  const child = spawn(process.execPath, [join(root, 'bin/workbench.js'), 'serve', ...args], {
    env: { ...process.env, WORKBENCH_HOME: mkdtempSync(join(tmpdir(), 'wb-serve-listen-')) },
  });
  running.push(child);
  return child;
}

/**
 * The URL a serve prints, once stderr has said everything it says before it (two pipes:
 * either may be read first).
 */
function listening(child: ChildProcess): Promise<{ url: URL; stderr: () => string }> {
  let stderr = '';
  let out = '';
  return new Promise((resolve, reject) => {
    const check = () => {
      const line = out.split('\n').find((l) => l.startsWith('http://'));
      if (line && stderr.includes('open this URL')) {
        resolve({ url: new URL(line.trim()), stderr: () => stderr });
      }
    };
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      check();
    });
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      check();
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}

function exited(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr })));
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function expectOneLine(stderr: string): void {
  expect(stderr.trimEnd().split('\n'), stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at |Error: listen|EADDRINUSE/);
}

describe('workbench serve: where it listens', () => {
  it('a port held by another workbench serve: one line naming it, exit 2, no stack', async () => {
    const first = await listening(serve(['--port', '0']));
    const port = first.url.port;
    const second = await exited(serve(['--port', port]));
    expect(second.code).toBe(2);
    expectOneLine(second.stderr);
    expect(second.stderr).toBe(
      `workbench: 127.0.0.1:${port} is in use (another workbench serve is already listening there): stop that process, or choose another port with --port N (--port 0 picks a free one)\n`,
    );
  });

  it('a port held by some other process: says so, exit 2, no stack', async () => {
    const server = createServer();
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const result = await exited(serve(['--port', String(port)]));
    expect(result.code).toBe(2);
    expectOneLine(result.stderr);
    expect(result.stderr).toContain(`127.0.0.1:${port} is in use (another process is listening`);
  });

  it('--host 0.0.0.0 warns that it is reachable from the network, in plain HTTP', async () => {
    const { url, stderr } = await listening(serve(['--host', '0.0.0.0', '--port', '0']));
    const text = stderr();
    expect(text).toContain('WARNING: listening on every network address of this machine');
    expect(text).toContain('run commands in sandboxes');
    expect(text).toContain('the token in the URL is the');
    expect(text).toContain('plain HTTP');
    expect(text).toContain(`ssh -L ${url.port}:127.0.0.1:${url.port}`);
    // the warning never repeats the token: it is printed once, on stdout
    expect(text).not.toContain(url.searchParams.get('token'));
  });

  it('the default loopback bind has no warning, and says how to keep the URL across restarts', async () => {
    const { stderr } = await listening(serve(['--port', '0']));
    expect(stderr()).not.toContain('WARNING');
    expect(stderr()).toContain('set WORKBENCH_SERVE_TOKEN to keep one');
  });
});
