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
    const bomb = await sandbox.runInShell(shell, ':(){ :|:& };:', { timeoutMs: 4_000 });
    expect(bomb.timedOut).toBe(false);
    await new Promise((r) => setTimeout(r, 1_500));
    // The next command notices the full process table and restores the sandbox.
    const started = performance.now();
    const next = await sandbox.runInShell(shell, 'echo next', { timeoutMs: 4_000 });
    const elapsed = performance.now() - started;
    sampling = false;
    await sampler;

    expect(peak).toBeGreaterThan(32);
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
    for (let i = 0; i < 50 && ((await manager.engine.containerPids(victim.id)) ?? 0) < 48; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await manager.engine.containerPids(victim.id)).toBeGreaterThan(32);
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
