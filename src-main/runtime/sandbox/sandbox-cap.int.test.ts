/**
 * `[sandbox] max_containers` on the real engine (issue 12 item 6, reliability.md S14):
 * 12 sessions used to make 12 containers. Beyond the cap a session waits in a queue it
 * can leave, hears its place, and gets the slot of a sandbox nobody uses any more.
 */
import type { SandboxChangedEvent } from '@shared/events';
import { afterAll, describe, expect, it } from 'vitest';
import { CancelledError } from '../util/abort';
import type { Session } from '../session/session';
import { SandboxManager } from './sandbox-manager';
import { probeDocker } from './testing/docker-env';
import { containersOf, localSettings, tempSession } from './testing/sandbox-fixture';

const engine = await probeDocker();

describe.skipIf(!engine.available)('the sandbox cap', () => {
  const manager = new SandboxManager();
  const settings = localSettings({ max_containers: 2 });
  const sessions: Session[] = [];
  const session = () => {
    const s = tempSession();
    sessions.push(s);
    return s;
  };

  afterAll(async () => {
    await Promise.allSettled(sessions.map((s) => s.close()));
    await manager.dispose();
    expect(await containersOf(manager)).toEqual([]);
  });

  it('makes no more containers than the cap; the next session waits, says where, and gets a freed slot', async () => {
    const [a, b, c] = [session(), session(), session()];
    // Two runs hold their sessions' sandboxes.
    const leaseA = manager.lease(a.id);
    const leaseB = manager.lease(b.id);
    await Promise.all([manager.acquire(a, settings), manager.acquire(b, settings)]);
    expect(await containersOf(manager)).toHaveLength(2);

    const heard: SandboxChangedEvent[] = [];
    manager.watch(c.id, (event) => heard.push(event));
    const leaseC = manager.lease(c.id);
    let isReady = false;
    const third = manager.acquire(c, settings).then((s) => ((isReady = true), s));
    await new Promise((r) => setTimeout(r, 1_500));
    expect(isReady).toBe(false);
    expect(await containersOf(manager)).toHaveLength(2);
    expect(heard[0]).toMatchObject({
      status: 'queued',
      progress:
        'waiting for a free sandbox: 2 of 2 in use ([sandbox] max_containers); next in line',
    });

    // Run A ends: its idle sandbox makes room (its workspace stays).
    leaseA();
    const sandboxC = await third;
    expect(heard.map((e) => e.status)).toEqual(['queued', 'creating', 'ready']);
    const ids = await containersOf(manager);
    expect(ids).toHaveLength(2);
    expect(ids).toContain(sandboxC.id);
    expect(a.has('sandbox')).toBe(false);
    leaseB();
    leaseC();
  });

  it('lets a waiting run leave the queue at once when it is stopped', async () => {
    const [d, e] = [session(), session()];
    // All slots are held by runs (the sessions of the previous test have none left idle).
    const leases = sessions.slice(0, 3).map((s) => manager.lease(s.id));
    const controller = new AbortController();
    const waiting = manager.acquire(d, settings, { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 300));
    const started = performance.now();
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(CancelledError);
    expect(performance.now() - started).toBeLessThan(500);
    // The queue moved on: the next session is first in line, and gets in when a slot frees.
    const heard: SandboxChangedEvent[] = [];
    manager.watch(e.id, (event) => heard.push(event));
    const next = manager.acquire(e, settings);
    await new Promise((r) => setTimeout(r, 300));
    expect(heard[0]?.progress).toMatch(/next in line$/);
    for (const release of leases) release();
    await next;
    expect(await containersOf(manager)).toHaveLength(2);
    expect(d.has('sandbox')).toBe(false);
  });
});
