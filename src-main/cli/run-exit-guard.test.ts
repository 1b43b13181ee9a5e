import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('./testing/stalled-run-child.ts', import.meta.url));
const run = (mode: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', child, mode], {
    encoding: 'utf8',
    timeout: 30_000,
  });

// Issue 12 item 3: a run waiting on nothing that could wake it let Node exit 0 mid-run,
// without run.finished.
describe('workbench run when its run stalls', () => {
  it('stops a run stuck in an abortable wait, writes run.finished, and exits 1', () => {
    const result = run('abortable');
    expect(result.stderr).toContain('workbench: the run stalled');
    expect(result.stdout.trim().split('\n').at(-1)).toBe('run.finished');
    expect(result.status).toBe(1);
  });

  it('exits 1, never 0, when even the stop cannot end the run', () => {
    const result = run('deaf');
    expect(result.stderr).toContain('workbench: the run stalled');
    expect(result.stderr).toContain('its history ends without run.finished');
    expect(result.stdout).not.toContain('run.finished');
    expect(result.status).toBe(1);
  });

  it('says nothing and exits 0 for a run that finishes', () => {
    const result = run('normal');
    expect(result.stderr).toBe('');
    expect(result.stdout.trim().split('\n').at(-1)).toBe('run.finished');
    expect(result.status).toBe(0);
  });
});
