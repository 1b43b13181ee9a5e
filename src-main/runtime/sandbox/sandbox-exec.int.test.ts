/**
 * Commands in a real sandbox: one-shot execs and the persistent shell. Exit codes and
 * stderr kept, every output line kept (the original dropped digits-only lines, openmanus
 * 4.3), binary-safe, floods capped (S8), timeouts that really kill (S7) and leave the
 * sandbox usable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../session/session';
import { CancelledError } from '../util/abort';
import type { PersistentShell } from './persistent-shell';
import type { Sandbox } from './sandbox';
import { SandboxManager } from './sandbox-manager';
import { probeDocker } from './testing/docker-env';
import { containersOf, localSettings, tempSession } from './testing/sandbox-fixture';

const docker = await probeDocker();

describe.skipIf(!docker.available)('commands in a real sandbox', () => {
  const manager = new SandboxManager();
  let session: Session;
  let sandbox: Sandbox;
  let shell: PersistentShell;
  const processes = async () =>
    (await sandbox.exec(['ps', '-eo', 'args='], { timeoutMs: 10_000 })).stdout;

  beforeAll(async () => {
    session = tempSession();
    sandbox = await manager.acquire(session, localSettings());
    shell = await sandbox.openShell();
  });

  afterAll(async () => {
    await shell.close();
    await session.close();
    await manager.dispose();
    expect(await containersOf(manager)).toEqual([]);
  });

  describe('one-shot exec', () => {
    it('keeps the exit code, stdout and stderr apart', async () => {
      const r = await sandbox.exec(['bash', '-c', 'echo out; echo err >&2; exit 3'], {
        timeoutMs: 10_000,
      });
      expect(r).toMatchObject({ exitCode: 3, stdout: 'out\n', stderr: 'err\n', timedOut: false });
    });

    it('fixes openmanus 4.3: lines made only of digits survive', async () => {
      const r = await sandbox.exec(['bash', '-c', 'echo 42; echo 0; printf "7\\n\\n123"'], {
        timeoutMs: 10_000,
      });
      expect(r.stdout).toBe('42\n0\n7\n\n123');
    });

    it('is binary-safe: every byte value comes back as it was', async () => {
      const r = await sandbox.exec(
        ['python3', '-c', 'import sys; sys.stdout.buffer.write(bytes(range(256)) * 4)'],
        { timeoutMs: 10_000 },
      );
      const expected = Buffer.concat(
        Array(4).fill(Buffer.from(Array.from({ length: 256 }, (_, i) => i))),
      );
      expect(r.stdoutBytes?.equals(expected)).toBe(true);
    });

    it('feeds stdin and closes it, so code can come on stdin', async () => {
      const r = await sandbox.exec(['python3', '-'], {
        timeoutMs: 10_000,
        stdin: 'print(sum(range(10)))\n',
      });
      expect(r).toMatchObject({ exitCode: 0, stdout: '45\n' });
    });

    it('caps a flood with a marker and bounded memory (S8)', async () => {
      const flood = () =>
        sandbox.exec(['bash', '-c', 'yes | head -c 50000000; echo; echo END'], {
          timeoutMs: 60_000,
          outputCapBytes: 32 * 1024,
        });
      // The first flood warms the allocator and socket buffers; memory must then stay flat:
      // a second 50 MB flood may not grow the process by more than 50 MB (S8).
      await flood();
      const before = process.memoryUsage().rss;
      const r = await flood();
      const growth = process.memoryUsage().rss - before;
      expect(r.exitCode).toBe(0);
      expect(r.truncated).toBe(true);
      expect(r.stdout.length).toBeLessThan(33 * 1024);
      expect(r.stdout).toMatch(/bytes of output omitted/);
      expect(r.stdout.endsWith('y\n\nEND\n')).toBe(true);
      expect(growth).toBeLessThan(50 * 1024 * 1024);
    });

    it('kills a command and its children at the timeout, inside the container (S7)', async () => {
      const started = performance.now();
      const r = await sandbox.exec(['bash', '-c', 'sleep 301 & (setsid sleep 302 &); sleep 303'], {
        timeoutMs: 1_500,
      });
      const elapsed = performance.now() - started;
      expect(r.timedOut).toBe(true);
      expect(elapsed).toBeGreaterThanOrEqual(1_400);
      expect(elapsed).toBeLessThan(6_500);
      const left = await processes();
      expect(left).not.toMatch(/sleep 30[123]/);
      const next = await sandbox.exec(['echo', 'usable'], { timeoutMs: 10_000 });
      expect(next.stdout).toBe('usable\n');
    });

    it('kills the command when the caller cancels, and says it was cancelled', async () => {
      const controller = new AbortController();
      const pending = sandbox.exec(['sleep', '304'], {
        timeoutMs: 60_000,
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(), 300);
      await expect(pending).rejects.toBeInstanceOf(CancelledError);
      expect(await processes()).not.toMatch(/sleep 304/);
    });
  });

  describe('persistent shell', () => {
    it('keeps the working directory and environment between commands', async () => {
      await sandbox.runInShell(shell, 'mkdir -p /tmp/wd && cd /tmp/wd && export GREETING=hi', {
        timeoutMs: 10_000,
      });
      const r = await sandbox.runInShell(shell, 'pwd; echo "$GREETING"', { timeoutMs: 10_000 });
      expect(r).toMatchObject({ exitCode: 0, stdout: '/tmp/wd\nhi\n', cwd: '/tmp/wd' });
    });

    it('reports exit codes and stderr, keeps digits-only lines and output without a final newline', async () => {
      const r = await sandbox.runInShell(shell, 'echo 1; echo 22 >&2; printf 333; false', {
        timeoutMs: 10_000,
      });
      expect(r).toMatchObject({ exitCode: 1, stdout: '1\n333', stderr: '22\n' });
      const syntax = await sandbox.runInShell(shell, 'if then', { timeoutMs: 10_000 });
      expect(syntax.exitCode).toBe(2);
      expect(syntax.stderr).toMatch(/syntax error/);
    });

    it('does not let a command swallow the protocol through stdin', async () => {
      const r = await sandbox.runInShell(shell, 'cat; read x; echo "read:$?"', {
        timeoutMs: 5_000,
      });
      expect(r).toMatchObject({ exitCode: 0, stdout: 'read:1\n', timedOut: false });
    });

    it('kills a command at its timeout and keeps the shell and its state (S7)', async () => {
      await sandbox.runInShell(shell, 'export KEEP=yes; sleep 310 &', { timeoutMs: 10_000 });
      const started = performance.now();
      const r = await sandbox.runInShell(shell, 'echo start; sleep 311; sleep 312', {
        timeoutMs: 1_000,
      });
      expect(performance.now() - started).toBeLessThan(6_000);
      expect(r).toMatchObject({ timedOut: true, stdout: 'start\n', shellExited: false });
      const left = await processes();
      expect(left).not.toMatch(/sleep 31[12]/);
      // The background job of an earlier command is not the timed-out command's.
      expect(left).toMatch(/sleep 310/);
      const next = await sandbox.runInShell(shell, 'echo "$KEEP"; pwd', { timeoutMs: 10_000 });
      expect(next).toMatchObject({ exitCode: 0, stdout: 'yes\n/tmp/wd\n' });
    });

    it('replaces a shell stuck in a builtin loop; the next shell starts fresh', async () => {
      const stuck = await sandbox.openShell();
      const r = await sandbox.runInShell(stuck, 'while :; do :; done', { timeoutMs: 500 });
      expect(r).toMatchObject({ timedOut: true, shellExited: true });
      expect(stuck.isAlive).toBe(false);
      const pids = (await sandbox.exec(['ps', '-eo', 'pid='], { timeoutMs: 10_000 })).stdout;
      expect(pids.split('\n').map((p) => Number(p.trim()))).not.toContain(stuck.pid);
      const fresh = await sandbox.openShell();
      const ok = await sandbox.runInShell(fresh, 'echo fine', { timeoutMs: 10_000 });
      expect(ok.stdout).toBe('fine\n');
      await fresh.close();
    });

    it('reports `exit N` as the exit code and that the shell ended', async () => {
      const leaving = await sandbox.openShell();
      const r = await sandbox.runInShell(leaving, 'echo bye; exit 7', { timeoutMs: 10_000 });
      expect(r).toMatchObject({ exitCode: 7, stdout: 'bye\n', shellExited: true });
      expect(r.notes.join(' ')).toMatch(/next command starts a new shell/);
      expect(leaving.isAlive).toBe(false);
    });

    it('runs commands sent at the same time one after another', async () => {
      const results = await Promise.all(
        [1, 2, 3].map((n) => sandbox.runInShell(shell, `echo ${n}`, { timeoutMs: 10_000 })),
      );
      expect(results.map((r) => r.stdout)).toEqual(['1\n', '2\n', '3\n']);
    });
  });
});
