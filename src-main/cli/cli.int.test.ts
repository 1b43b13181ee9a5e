/**
 * The built `workbench` command as a user runs it: a real process, real stdout/stderr
 * and exit codes (DESIGN section 3).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { looksLikeRunEvent, type RunEvent } from '@shared/events';

const root = fileURLToPath(new URL('../..', import.meta.url));

function workbench(args: string[], env: Record<string, string> = {}) {
  const home = mkdtempSync(join(tmpdir(), 'wb-cli-'));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [join(root, 'bin/workbench.js'), ...args], {
      env: { ...process.env, WORKBENCH_HOME: home, WORKBENCH_DEMO_DELAY_MS: '5', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('workbench CLI', () => {
  it('prints the usage for --help', async () => {
    const { code, stdout } = await workbench(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: workbench <command>');
    expect(stdout).toContain('serve [--host 127.0.0.1] [--port N]');
  });

  it('run --jsonl prints only RunEvents on stdout, seq gapless from 1, and exits 0', async () => {
    const { code, stdout } = await workbench(['run', '--jsonl', 'say hello']);
    expect(code).toBe(0);
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as RunEvent);
    expect(events.every(looksLikeRunEvent)).toBe(true);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events[0]?.type).toBe('run.started');
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'finished' });
  });

  it('exits 3 when the step limit is reached', async () => {
    const { code, stderr, stdout } = await workbench(['run', '--max-steps', '1', 'never done']);
    expect(code).toBe(3);
    expect(stderr).toContain('■ max steps reached after 1 steps');
    // stdout is the answer of a finished run: a run cut off by its step budget has none
    // (its last words, "Terminated: Reached max steps", are the verdict on stderr)
    expect(stdout).toBe('');
  });

  it('exits 2 with a one-line reason for bad usage', async () => {
    for (const args of [
      ['run'],
      ['run', '--agent', 'nope', 'x'],
      ['run', '--max-steps', 'zero', 'x'],
      ['frobnicate'],
    ]) {
      const { code, stderr } = await workbench(args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
