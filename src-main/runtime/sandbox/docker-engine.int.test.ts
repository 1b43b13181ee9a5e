import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from './testing/docker-env';

const run = promisify(execFile);
const docker = await probeDocker();

describe.skipIf(!docker.available)('Docker engine and the local sandbox image', () => {
  it('runs python3 as a non-root user with no network in the local image', async () => {
    const { stdout } = await run('docker', [
      'run',
      '--rm',
      '--network',
      'none',
      '--user',
      '1000:1000',
      LOCAL_SANDBOX_IMAGE,
      'python3',
      '-c',
      'import os; print(os.getuid(), 6 * 7)',
    ]);
    expect(stdout.trim()).toBe('1000 42');
  });
});
