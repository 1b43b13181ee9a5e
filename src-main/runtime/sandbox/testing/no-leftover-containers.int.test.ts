/**
 * The suite-end check blames (and removes) a container leaked during the run, and
 * leaves alone containers of live owners and those that existed before.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { LABELS } from '../container-policy';
import { currentOwner } from '../owner';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from './docker-env';
import setup from './no-leftover-containers';
import { containersWith, docker } from './sandbox-fixture';

const engine = await probeDocker();

async function startLabelled(instance: string, pid: number): Promise<string> {
  const host = currentOwner().host;
  const labels = {
    [LABELS.managed]: 'true',
    [LABELS.instance]: instance,
    [LABELS.host]: host,
    [LABELS.pid]: String(pid),
    [LABELS.session]: 'leak-test',
  };
  const args = Object.entries(labels).flatMap(([k, v]) => ['--label', `${k}=${v}`]);
  const out = await docker(
    'run',
    '-d',
    '--network',
    'none',
    ...args,
    '--entrypoint',
    'sleep',
    LOCAL_SANDBOX_IMAGE,
    'infinity',
  );
  return out.trim();
}

describe.skipIf(!engine.available)('suite-end leftover check', () => {
  it('fails on, and removes, containers leaked during the run; spares live owners', async () => {
    // The owner dies just before the check, so no other instance's start-up sweep on the
    // shared engine gets to remove the leak first.
    const owner = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    const ownerPid = owner.pid ?? -1;
    const teardown = await setup();
    const leaked = await startLabelled('leaky-instance', ownerPid);
    const alive = await startLabelled('live-instance', process.pid);
    owner.kill('SIGKILL');
    await new Promise((resolve) => owner.on('exit', resolve));
    try {
      await expect(teardown()).rejects.toThrow(/1 sandbox container\(s\) were left behind/);
      expect(await containersWith({ [LABELS.instance]: 'leaky-instance' })).toEqual([]);
      expect(await containersWith({ [LABELS.instance]: 'live-instance' })).toEqual([alive]);
    } finally {
      await docker('rm', '-f', leaked, alive);
    }
  });
});
