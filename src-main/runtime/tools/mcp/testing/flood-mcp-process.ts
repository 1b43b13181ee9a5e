/**
 * Starts the flooding MCP server (flood-mcp-server.ts) for tests: the stdio settings to
 * give the client, or a real streamable HTTP server process.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { McpServerSettings } from '../../../config/schema';

const FLOOD_SERVER_SCRIPT = fileURLToPath(new URL('./flood-mcp-server.ts', import.meta.url));
export const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export function floodStdioSettings(overrides: Partial<McpServerSettings> = {}): McpServerSettings {
  return {
    type: 'stdio',
    command: process.execPath,
    args: ['--import', TSX_LOADER, FLOOD_SERVER_SCRIPT, 'stdio'],
    env: {},
    timeout: 30,
    ...overrides,
  };
}

export interface FloodHttpServer {
  settings: McpServerSettings;
  kill(): Promise<void>;
}

export async function startFloodHttpServer(
  overrides: Partial<McpServerSettings> = {},
): Promise<FloodHttpServer> {
  const child = spawn(
    process.execPath,
    ['--import', TSX_LOADER, FLOOD_SERVER_SCRIPT, 'http', '0'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`flood server did not start: ${stderr}`)),
      30_000,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /LISTENING (\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`flood server exited with ${code}: ${stderr}`));
    });
  });
  return {
    settings: {
      type: 'http',
      url: `http://127.0.0.1:${port}/mcp`,
      args: [],
      env: {},
      timeout: 30,
      ...overrides,
    },
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
