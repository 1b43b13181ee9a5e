/**
 * The reference MCP servers from npm (devDependencies), started the way users start them:
 * `@modelcontextprotocol/server-everything` over stdio, SSE and streamable HTTP, and
 * `-filesystem` and `-memory`, which speak stdio only. Each can be wrapped in a recorder
 * (stdio-recorder.mjs, recording-proxy.ts) that shows what reached the server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { McpServerSettings } from '../../../config/schema';

const resolve = createRequire(import.meta.url).resolve;
export const EVERYTHING = resolve('@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM = resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
export const MEMORY = resolve('@modelcontextprotocol/server-memory/dist/index.js');
const RECORDER = fileURLToPath(new URL('./stdio-recorder.mjs', import.meta.url));

export type Transport = 'stdio' | 'sse' | 'http';

export function stdioSettings(
  script: string,
  args: string[] = [],
  options: { env?: Record<string, string>; timeout?: number; recordTo?: string } = {},
): McpServerSettings {
  const command = [script, ...args];
  return {
    type: 'stdio',
    command: process.execPath,
    args: options.recordTo ? [RECORDER, options.recordTo, process.execPath, ...command] : command,
    env: options.env ?? {},
    timeout: options.timeout ?? 30,
  };
}

export interface RunningServer {
  /** the server's own URL (SSE: /sse, streamable HTTP: /mcp) */
  url: string;
  origin: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  await new Promise((done) => server.close(done));
  return port;
}

/** server-everything over SSE or streamable HTTP, on a free port of 127.0.0.1. */
export async function startEverything(transport: 'sse' | 'http'): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [EVERYTHING, transport === 'sse' ? 'sse' : 'streamableHttp'],
    { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`server-everything did not start: ${output}`)),
      30_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/running on port|listening on port/i.test(output)) {
        clearTimeout(timer);
        ready();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) =>
      fail(new Error(`server-everything exited with ${code}: ${output}`)),
    );
  });
  // keep draining its (chatty) logs so it never blocks on a full pipe
  child.stdout!.resume();
  child.stderr!.resume();
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}${transport === 'sse' ? '/sse' : '/mcp'}`,
    origin,
    process: child,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGKILL');
      }),
  };
}
