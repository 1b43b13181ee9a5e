/**
 * Resource limits on a real container: a fork bomb is contained by the pids limit and
 * the sandbox recovers (S2); a memory hog is killed and reported as out of memory (S3).
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../session/session';
import type { Sandbox } from './sandbox';
import { SandboxManager } from './sandbox-manager';
import { probeDocker } from './testing/docker-env';
import { containersOf, docker, localSettings, tempSession } from './testing/sandbox-fixture';

const engine = await probeDocker();

describe.skipIf(!engine.available)('sandbox resource limits', () => {
  const manager = new SandboxManager();
  const settings = localSettings({ memory_limit: '128m', pids_limit: 64 });
  let session: Session;
  let sandbox: Sandbox;

  beforeAll(async () => {
    session = tempSession();
    sandbox = await manager.acquire(session, settings);
  });

  afterAll(async () => {
    await session.close();
    await manager.dispose();
    expect(await containersOf(manager)).toEqual([]);
  });

  it('contains a fork bomb with the pids limit, keeps the host responsive, then recovers (S2)', async () => {
    const shell = await sandbox.openShell();
    let peak = 0;
    let worstHostSpawnMs = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const pids = await manager.engine.containerPids(sandbox.id).catch(() => null);
        if (pids !== null) peak = Math.max(peak, pids);
        const t = performance.now();
        spawnSync('true');
        worstHostSpawnMs = Math.max(worstHostSpawnMs, performance.now() - t);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    // The classic bomb returns at once and multiplies in the background.
    const generation = sandbox.generation;
    const bomb = await sandbox.runInShell(shell, ':(){ :|:& };:', { timeoutMs: 4_000 });
    expect(bomb.timedOut).toBe(false);
    // The full process table is noticed after the call and the sandbox restored, without
    // waiting for the next command (which runs in a new shell and says what happened).
    // Within 5 s: an engine not on the local socket has no host cgroup file to read, and
    // its exact count (`docker stats`) takes about a second; locally it is well under 1.5 s.
    const deadline = performance.now() + 5_000;
    while (sandbox.generation === generation && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(sandbox.generation).toBe(generation + 1);
    const started = performance.now();
    const again = await sandbox.openShell();
    const next = await sandbox.runInShell(again, 'echo next', { timeoutMs: 4_000 });
    const elapsed = performance.now() - started;
    await again.close();
    sampling = false;
    await sampler;

    // The limit held. How close the sampler got to it is luck: the guard restarts the
    // sandbox within ~0.2 s of the table filling (CI once sampled a peak of 21); that
    // the table did fill is proven by the note below, which comes only at 90 % of it.
    expect(peak).toBeLessThanOrEqual(64);
    expect(worstHostSpawnMs).toBeLessThan(1_000);
    // Within its timeout + 5 s, recovery included.
    expect(elapsed).toBeLessThan(4_000 + 5_000);
    expect([...bomb.notes, ...next.notes].join(' ')).toMatch(
      /reached its process limit \(64 processes/,
    );

    // The sandbox works again: same container, fresh processes, workspace kept.
    const fresh = await sandbox.openShell();
    const after = await sandbox.runInShell(fresh, 'echo alive; ps -e --no-headers | wc -l', {
      timeoutMs: 10_000,
    });
    expect(after.stdout.split('\n')[0]).toBe('alive');
    expect(Number(after.stdout.split('\n')[1])).toBeLessThan(10);
    await fresh.close();
  });

  it('stops a command stuck behind a bomb at its timeout and clears the bomb (S2)', async () => {
    const shell = await sandbox.openShell();
    const started = performance.now();
    const result = await sandbox.runInShell(shell, ':(){ :|:& };:; sleep 30', {
      timeoutMs: 3_000,
    });
    expect(result.timedOut).toBe(true);
    expect(performance.now() - started).toBeLessThan(3_000 + 5_000);
    // Either the killer got the bomb's processes or the sandbox was restarted.
    expect(await manager.engine.containerPids(sandbox.id)).toBeLessThan(10);
    const fresh = await sandbox.openShell();
    const ok = await sandbox.runInShell(fresh, 'echo ok', { timeoutMs: 10_000 });
    expect(ok.stdout).toBe('ok\n');
    await fresh.close();
    await shell.close();
  });

  it('removes a container full of bomb processes in under 2 s (S2)', async () => {
    const other = tempSession();
    const victim = await manager.acquire(other, settings);
    // Started behind the sandbox's back, so nothing recovers it before the removal.
    await docker('exec', '-d', victim.id, 'bash', '-c', ':(){ :|:& };:');
    // The most seen: with the table full, `docker top` sometimes lists nothing (see
    // saturation-guard.ts), so a last look alone may miss the bomb that is there.
    // Up to 10 s for the bomb to fill the table: under load Podman's reached 18 in 5 s.
    let seen = 0;
    for (let i = 0; i < 100 && seen < 48; i++) {
      seen = Math.max(seen, (await manager.engine.containerPids(victim.id)) ?? 0);
      if (seen < 48) await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen).toBeGreaterThan(32);
    const started = performance.now();
    await other.close();
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(await manager.engine.inspectContainer(victim.id)).toBeNull();
  });

  it('stops a memory hog and reports it as out of memory; the sandbox keeps working (S3)', async () => {
    const hog = await sandbox.exec(
      ['python3', '-c', 'x = bytearray(256 * 1024 * 1024); print("no")'],
      {
        timeoutMs: 30_000,
      },
    );
    expect(hog.exitCode).toBe(137);
    expect(hog.oomKilled).toBe(true);
    expect(hog.stdout).toBe('');

    const shell = await sandbox.openShell();
    const inShell = await sandbox.runInShell(
      shell,
      'python3 -c "x = bytearray(256 * 1024 * 1024)"; echo "after $?"',
      { timeoutMs: 30_000 },
    );
    expect(inShell.oomKilled).toBe(true);
    expect(inShell.stdout).toBe('after 137\n');

    const fine = await sandbox.exec(['python3', '-c', 'print(len(bytearray(16 * 1024 * 1024)))'], {
      timeoutMs: 30_000,
    });
    expect(fine).toMatchObject({ exitCode: 0, stdout: `${16 * 1024 * 1024}\n`, oomKilled: false });
    await shell.close();
  });
});

// Issue 12 item 4: at the default limit a backgrounded bomb returned exit 0 with pids at
// 256/256, the container was restarted in only 48 of 119 runs, and the next call stalled.
describe.skipIf(!engine.available)('a fork bomb in the background (default pids limit 256)', () => {
  const manager = new SandboxManager();
  const settings = localSettings();
  let session: Session;
  let sandbox: Sandbox;
  const restarted = /reached its process limit \(256 processes.*It was restarted/;

  beforeAll(async () => {
    session = tempSession();
    sandbox = await manager.acquire(session, settings);
  });

  afterAll(async () => {
    await session.close();
    await manager.dispose();
    expect(await containersOf(manager)).toEqual([]);
  });

  /** Waits until the sandbox was restarted (no further call needed); the time it took. */
  async function restartedWithin(generation: number, limitMs: number): Promise<number> {
    const started = performance.now();
    while (sandbox.generation === generation && performance.now() - started < limitMs) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(sandbox.generation, 'the sandbox was restarted').toBe(generation + 1);
    return performance.now() - started;
  }

  it('restarts the sandbox right after the call that started it, 5 of 5 times', async () => {
    for (let trial = 0; trial < 5; trial++) {
      const shell = await sandbox.openShell();
      const generation = sandbox.generation;
      const bomb = await sandbox.runInShell(shell, ':(){ :|:& };: &', { timeoutMs: 10_000 });
      expect(bomb.exitCode, `trial ${trial}`).toBe(0);
      expect(await restartedWithin(generation, 5_000), `trial ${trial}`).toBeLessThan(5_000);
      expect(await manager.engine.containerPids(sandbox.id)).toBeLessThan(10);
      // The next call is quick, works, and says what happened (unless the bomb call did).
      const note = await sandbox.restoreIfSaturated();
      const fresh = await sandbox.openShell();
      const started = performance.now();
      const next = await sandbox.runInShell(fresh, 'echo next', { timeoutMs: 10_000 });
      expect(next.stdout).toBe('next\n');
      expect(performance.now() - started).toBeLessThan(3_000);
      expect([...bomb.notes, ...next.notes, note].join(' '), `trial ${trial}`).toMatch(restarted);
      await fresh.close();
    }
  });

  it('restarts it after a one-shot exec that started it', async () => {
    const generation = sandbox.generation;
    const bomb = await sandbox.exec(['bash', '-c', ':(){ :|:& };: &'], { timeoutMs: 10_000 });
    // Without a further call, well before the 20 s stall of issue 12 item 4. The speed is
    // the test above; here 10 s, since a Podman restart under load once took over 5 s.
    await restartedWithin(generation, 10_000);
    const next = await sandbox.exec(['echo', 'next'], { timeoutMs: 10_000 });
    expect(next).toMatchObject({ exitCode: 0, stdout: 'next\n' });
    expect([...bomb.notes, ...next.notes].join(' ')).toMatch(restarted);
  });

  it('finds one that went off later, before the next call', async () => {
    await sandbox.restoreIfSaturated(); // what earlier tests left to say is said
    const generation = sandbox.generation;
    const late = await sandbox.exec(
      ['bash', '-c', '(sleep 1.5; :(){ :|:& };:) >/dev/null 2>&1 &'],
      { timeoutMs: 10_000 },
    );
    expect(late.notes).toEqual([]);
    await new Promise((r) => setTimeout(r, 3_000));
    expect(sandbox.generation).toBe(generation); // nothing looked in the meantime
    const started = performance.now();
    expect(await sandbox.restoreIfSaturated()).toMatch(restarted);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await manager.engine.containerPids(sandbox.id)).toBeLessThan(10);
  });
});
