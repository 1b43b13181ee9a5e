/**
 * `npm start` where the desktop window cannot open (this machine: Node older than
 * Electron's installer needs, or no internet access to download Electron): one readable
 * line says why, browser mode starts, and nothing prints a stack trace or advice that
 * does not apply (issue 11, item 10).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

it('npm start without a usable Electron says why in one line and serves browser mode', async () => {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: {
      ...process.env,
      DISPLAY: ':99',
      WORKBENCH_HOME: mkdtempSync(join(tmpdir(), 'wb-start-')),
      WORKBENCH_BROWSER_MODE: '',
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const served = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 110_000);
    const check = () => {
      if (/token=/.test(stdout)) {
        clearTimeout(timer);
        resolve(true);
      }
    };
    child.stdout.on('data', check);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  expect(served, stderr).toBe(true);
  const reasons = stderr
    .split('\n')
    .filter((l) => l.includes('The desktop window cannot open here'));
  expect(reasons).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
  expect(stderr).not.toMatch(/TypeError|install-electron|EBADENGINE/);
}, 120_000);
