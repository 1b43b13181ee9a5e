/**
 * The built `workbench` CLI as a child process for the integration tests that follow a
 * run's `--jsonl` events and act on them (stop it, kill it): the events as parsed, the
 * exit code (null when killed), and stderr.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunEvent } from '@shared/events';

const root = fileURLToPath(new URL('../../..', import.meta.url));

export interface Ran {
  code: number | null;
  events: RunEvent[];
  stderr: string;
}

type Signal = (name: NodeJS.Signals) => void;

export function runWorkbench(
  home: string,
  args: string[],
  options: {
    /** each event as it arrives, with a way to signal the process */
    onEvent?: (event: RunEvent, signal: Signal) => void;
    /** called once the process started, with a way to signal it */
    whileRunning?: (signal: Signal) => void;
    /** laid over this process's environment (e.g. DOCKER_HOST at an engine that is not there) */
    env?: NodeJS.ProcessEnv;
  } = {},
): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'bin/workbench.js'), ...args], {
      env: { ...process.env, ...options.env, WORKBENCH_HOME: home },
    });
    const signal: Signal = (name) => child.kill(name);
    options.whileRunning?.(signal);
    const events: RunEvent[] = [];
    let pending = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      pending += d.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        const event = JSON.parse(line) as RunEvent;
        events.push(event);
        options.onEvent?.(event, signal);
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, events, stderr }));
  });
}
