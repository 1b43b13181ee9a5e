/**
 * The sandbox lifecycle on the real engine: one container per session, reused, removed
 * with the session and at dispose; recreated after it was killed from outside or when
 * its policy changed (S12); orphans of dead instances swept, live ones left alone (S9);
 * a missing image explained.
 */
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import type { SandboxChangedEvent } from '@shared/events';
import { LABELS } from './container-policy';
import { ImageUnavailableError } from './errors';
import { SandboxManager } from './sandbox-manager';
import { currentOwner } from './owner';
import { probeDocker, LOCAL_SANDBOX_IMAGE } from './testing/docker-env';
import {
  containersOf,
  containersWith,
  docker,
  localSettings,
  tempSession,
} from './testing/sandbox-fixture';
import { SandboxAccess } from '../tools/sandbox/sandbox-access';

const engine = await probeDocker();

describe.skipIf(!engine.available)('sandbox lifecycle', () => {
  const managers: SandboxManager[] = [];
  const newManager = () => {
    const manager = new SandboxManager();
    managers.push(manager);
    return manager;
  };

  afterAll(async () => {
    for (const manager of managers) {
      await manager.dispose();
      expect(await containersOf(manager)).toEqual([]);
    }
  });

  it('gives each session its own container, reused by later calls, removed on close', async () => {
    const manager = newManager();
    const events: string[] = [];
    const a = tempSession();
    const b = tempSession();
    manager.watch(a.id, (e) => events.push(e.status));
    const settings = localSettings();
    const [sa, sb] = await Promise.all([
      manager.acquire(a, settings),
      manager.acquire(b, settings),
    ]);
    expect(sa.id).not.toBe(sb.id);
    expect((await manager.acquire(a, settings)).id).toBe(sa.id);
    expect(await containersWith({ [LABELS.session]: a.id })).toEqual([sa.id]);
    expect(await containersWith({ [LABELS.session]: b.id })).toEqual([sb.id]);
    await sa.exec(['true'], { timeoutMs: 10_000 });
    await a.close();
    expect(await containersWith({ [LABELS.session]: a.id })).toEqual([]);
    expect(events).toEqual(['creating', 'ready', 'busy', 'idle', 'removed']);
    expect(manager.status(a.id)).toMatchObject({ status: 'removed', image: LOCAL_SANDBOX_IMAGE });
    await b.close();
  });

  it('recreates a container removed or stopped from outside, and leaves nothing behind', async () => {
    const manager = newManager();
    const session = tempSession();
    const forwarded: SandboxChangedEvent[] = [];
    const access = new SandboxAccess({
      manager,
      session,
      settings: localSettings(),
      emit: (e) => {
        if (e.type === 'sandbox.changed') forwarded.push(e);
      },
    });
    const first = await access.get();
    await docker('rm', '-f', first.id);
    // The next use finds it gone before anything ran, so it recreates and runs.
    const out = await access.use(undefined, (s) =>
      s.exec(['echo', 'again'], { timeoutMs: 10_000 }),
    );
    expect(out.stdout).toBe('again\n');
    const second = await access.get();
    expect(second.id).not.toBe(first.id);

    await docker('stop', '-t', '0', second.id);
    const third = await access.use(undefined, async (s) => {
      await s.exec(['true'], { timeoutMs: 10_000 });
      return s;
    });
    expect(third.id).not.toBe(second.id);
    // The stopped one was removed, not left behind.
    expect(await containersWith({ [LABELS.session]: session.id })).toEqual([third.id]);
    expect(forwarded.map((e) => e.status)).toContain('failed');
    access.dispose();
    await session.close();
  });

  it('recreates the sandbox when its settings change (S12)', async () => {
    const manager = newManager();
    const session = tempSession();
    const before = await manager.acquire(session, localSettings());
    const after = await manager.acquire(session, localSettings({ pids_limit: 128 }));
    expect(after.id).not.toBe(before.id);
    expect(await containersWith({ [LABELS.session]: session.id })).toEqual([after.id]);
    const info = JSON.parse(await docker('inspect', after.id)) as [
      { HostConfig: { PidsLimit: number } },
    ];
    expect(info[0].HostConfig.PidsLimit).toBe(128);
    await session.close();
  });

  it('sweeps containers of dead instances and leaves live and foreign ones alone (S9)', async () => {
    const child = spawn(process.execPath, ['-e', '0']);
    const deadPid = child.pid ?? -1;
    await new Promise((resolve) => child.on('exit', resolve));
    const self = currentOwner('other-live-instance');
    const start = async (labels: Record<string, string>) =>
      (
        await docker(
          'run',
          '-d',
          '--network',
          'none',
          // explicit, as the sandbox sets them: Podman's defaults exceed what it may set here
          '--ulimit',
          'nofile=4096:4096',
          '--ulimit',
          'nproc=16384:16384',
          ...Object.entries({ [LABELS.managed]: 'true', ...labels }).flatMap(([k, v]) => [
            '--label',
            `${k}=${v}`,
          ]),
          '--entrypoint',
          'sleep',
          LOCAL_SANDBOX_IMAGE,
          'infinity',
        )
      ).trim();
    const orphan = await start({
      [LABELS.instance]: 'crashed',
      [LABELS.host]: self.host,
      [LABELS.pid]: String(deadPid),
    });
    const live = await start({
      [LABELS.instance]: self.instanceId,
      [LABELS.host]: self.host,
      [LABELS.pid]: String(process.pid),
      [LABELS.pidStart]: self.pidStart,
    });
    const foreign = await start({
      [LABELS.instance]: 'elsewhere',
      [LABELS.host]: 'another-machine',
      [LABELS.pid]: String(deadPid),
    });
    try {
      const started = performance.now();
      const result = await newManager().sweepOrphans();
      expect(performance.now() - started).toBeLessThan(10_000);
      // Another instance starting on the shared engine may have swept the orphan first:
      // what matters is that it is gone and the others are not.
      expect(result.removed).not.toContain(live);
      expect(result.removed).not.toContain(foreign);
      expect(await containersWith({ [LABELS.instance]: 'crashed' })).toEqual([]);
      expect(await containersWith({ [LABELS.instance]: self.instanceId })).toEqual([live]);
    } finally {
      await docker('rm', '-f', orphan, live, foreign);
    }
  });

  it('removes every container it still has on dispose (app quit)', async () => {
    const manager = new SandboxManager();
    const sessions = [tempSession(), tempSession()];
    await Promise.all(sessions.map((s) => manager.acquire(s, localSettings())));
    expect(await containersOf(manager)).toHaveLength(2);
    await manager.dispose();
    expect(await containersOf(manager)).toEqual([]);
  });

  it('explains a missing local image and an image that cannot be pulled', async () => {
    const manager = newManager();
    const session = tempSession();
    const local = manager.acquire(
      session,
      localSettings({ image: 'agent-workbench/sandbox:nope' }),
    );
    await expect(local).rejects.toBeInstanceOf(ImageUnavailableError);
    await expect(local).rejects.toThrow(/"agent-workbench\/sandbox:nope".*setup-system\.sh/);
    const remote = manager.acquire(session, localSettings({ image: '127.0.0.1:1/nothing:here' }));
    await expect(remote).rejects.toThrow(
      /"127\.0\.0\.1:1\/nothing:here" is not available locally and could not be pulled.*docker pull/,
    );
    expect(manager.status(session.id)).toMatchObject({ status: 'failed' });
    expect(await containersWith({ [LABELS.session]: session.id })).toEqual([]);
  });
});
