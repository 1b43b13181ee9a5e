/**
 * The built `workbench` command when the files in WORKBENCH_HOME are not what they should
 * be (issue 12 item 8): a FIFO config.toml used to hang the command, a folder or corrupt
 * secrets.json gave a stack trace, exit 1, and blocked every run.
 */
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

function workbench(home: string, args: string[]) {
  return new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>(
    (resolve) => {
      const started = performance.now();
      const child = spawn(process.execPath, [join(root, 'bin/workbench.js'), ...args], {
        env: { ...process.env, WORKBENCH_HOME: home, WORKBENCH_DEMO_DELAY_MS: '1' },
      });
      // A hang is the bug: give up well before the test's own timeout.
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr, ms: performance.now() - started });
      });
    },
  );
}

const freshHome = () => mkdtempSync(join(tmpdir(), 'wb-hostile-'));

describe('workbench with hostile files in its home', () => {
  it.each([
    ['a FIFO', (f: string) => execFileSync('mkfifo', [f]), /named pipe/],
    ['a link to /dev/zero', (f: string) => symlinkSync('/dev/zero', f), /is a device/],
    ['a folder', (f: string) => mkdirSync(f), /is a folder/],
  ])('config.toml as %s: exit 2 with one line, at once', async (_, make, reason) => {
    const home = freshHome();
    make(join(home, 'config.toml'));
    const result = await workbench(home, ['run', '--agent', 'toolcall', 'hello']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(reason);
    expect(result.ms).toBeLessThan(15_000);
  });

  it.each([
    ['a folder', (f: string) => mkdirSync(f)],
    ['corrupt JSON', (f: string) => writeFileSync(f, '{"secrets": {', { mode: 0o600 })],
  ])('secrets.json as %s: runs still work, with a warning and no stack trace', async (_, make) => {
    const home = freshHome();
    make(join(home, 'secrets.json'));
    const result = await workbench(home, ['run', '--agent', 'toolcall', 'hello']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/secrets\.json .*API keys saved from the UI cannot be read/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('warns about an API key in a config.toml other users can read', async () => {
    const home = freshHome();
    writeFileSync(
      join(home, 'config.toml'),
      '[llm]\napi_type = "scripted"\napi_key = "sk-inline-123456789"\n',
      { mode: 0o644 },
    );
    const result = await workbench(home, ['run', '--agent', 'toolcall', 'hello']);
    expect(result.stderr).toContain('can be read by other users of this machine (mode 0644)');
    expect(result.stderr).not.toContain('sk-inline-123456789');
  });
});
