/**
 * Starts the test MCP server (test-mcp-server.ts) for tests: the stdio settings to give
 * the client, or a real HTTP/SSE server process to connect to and to kill.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { McpServerSettings } from '../../../config/schema';

export const TEST_SERVER_SCRIPT = fileURLToPath(new URL('./test-mcp-server.ts', import.meta.url));
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** The node arguments that run the test server in a mode. */
export function testServerArgs(mode: 'stdio' | 'http' | 'sse', port = 0): string[] {
  return ['--import', TSX_LOADER, TEST_SERVER_SCRIPT, mode, String(port)];
}

export function stdioServerSettings(overrides: Partial<McpServerSettings> = {}): McpServerSettings {
  return {
    type: 'stdio',
    command: process.execPath,
    args: testServerArgs('stdio'),
    env: {},
    timeout: 30,
    ...overrides,
  };
}

export interface RunningMcpServer {
  url: string;
  port: number;
  process: ChildProcess;
  settings: McpServerSettings;
  /** kills the process and waits for it to exit */
  kill(): Promise<void>;
}

export async function startNetworkServer(
  mode: 'http' | 'sse',
  port = 0,
): Promise<RunningMcpServer> {
  const child = spawn(process.execPath, testServerArgs(mode, port), {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const actualPort = await new Promise<number>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(
      () => reject(new Error(`test MCP server did not start: ${stderr}`)),
      30_000,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const match = /LISTENING (\d+)/.exec(buffer);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`test MCP server exited with ${code}: ${stderr}`));
    });
  });
  const path = mode === 'http' ? '/mcp' : '/sse';
  const url = `http://127.0.0.1:${actualPort}${path}`;
  return {
    url,
    port: actualPort,
    process: child,
    settings: { type: mode, url, args: [], env: {}, timeout: 30 },
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
