import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('./testing/exit-code-child.ts', import.meta.url));

describe('one-shot exec waits', () => {
  // Issue 12 item 3: the poll delay was unref'd, so a CLI with nothing else pending exited
  // 0 in the middle of a run (seen in 4 of 119 fork-bomb runs).
  it('keep the process alive while polling for an exit code', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', child], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('exit code 7 after 4 looks\n');
    expect(result.status).toBe(0);
  });
});
