/**
 * A `workbench serve` of a spec's own, for what the shared server cannot show: Docker
 * that is down (DOCKER_HOST pointing nowhere), no API key (the built-in demo model).
 * It gets its own WORKBENCH_HOME and a free port (or the home and port given: a restart),
 * and stops with SIGTERM (so it removes whatever containers it made).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PrivateServer {
  url: string;
  home: string;
  port: number;
  stop(): Promise<void>;
}

const TOKEN = 'e2e-private-token-0123456789';

export async function startPrivateServer(options: {
  configToml: string;
  env?: Record<string, string>;
  /** more files for the home (a scenario file the config names), by name */
  files?: Record<string, string>;
  /** an earlier server's home and port: the same workbench, restarted */
  home?: string;
  port?: number;
  /** a new random token at each start, as `workbench serve` makes without the variable */
  isTokenRandom?: boolean;
}): Promise<PrivateServer> {
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'workbench-e2e-private-'));
  writeFileSync(join(home, 'config.toml'), options.configToml, { mode: 0o600 });
  for (const [name, text] of Object.entries(options.files ?? {})) {
    writeFileSync(join(home, name), text, { mode: 0o600 });
  }
  const child: ChildProcess = spawn(
    process.execPath,
    ['bin/workbench.js', 'serve', '--port', String(options.port ?? 0)],
    {
      env: {
        ...withoutServeToken(process.env),
        WORKBENCH_HOME: home,
        ...(options.isTokenRandom ? {} : { WORKBENCH_SERVE_TOKEN: TOKEN }),
        WORKBENCH_DEMO_DELAY_MS: '150',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 60_000);
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${stderr}`));
    });
  });
  return {
    url,
    home,
    port: Number(new URL(url).port),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

function withoutServeToken(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { WORKBENCH_SERVE_TOKEN: _token, ...rest } = env;
  return rest;
}
