/**
 * The container policy on a real container: `docker inspect` (S1), and what a process
 * inside can and cannot do: privileges (S6), disk (S4), network (S5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LABELS } from './container-policy';
import { SandboxManager } from './sandbox-manager';
import type { Sandbox } from './sandbox';
import type { Session } from '../session/session';
import { probeDocker } from './testing/docker-env';
import { assertSandboxPolicy } from './testing/policy-assertions';
import { containersOf, dockerInspect, localSettings, tempSession } from './testing/sandbox-fixture';

const docker = await probeDocker();

describe.skipIf(!docker.available)('sandbox policy on a real container', () => {
  const manager = new SandboxManager();
  const settings = localSettings({ memory_limit: '128m' });
  let session: Session;
  let sandbox: Sandbox;
  const sh = async (script: string) => sandbox.exec(['bash', '-c', script], { timeoutMs: 20_000 });

  beforeAll(async () => {
    session = tempSession();
    sandbox = await manager.acquire(session, settings);
  });

  afterAll(async () => {
    await session.close();
    await manager.dispose();
    expect(await containersOf(manager)).toEqual([]);
  });

  it('matches the policy in docker inspect (S1)', async () => {
    const info = await dockerInspect(sandbox.id);
    const config = info['Config'] as Record<string, unknown>;
    assertSandboxPolicy(
      {
        User: config['User'] as string,
        WorkingDir: config['WorkingDir'] as string,
        Labels: config['Labels'] as Record<string, string>,
        ExposedPorts: config['ExposedPorts'] as Record<string, unknown> | null,
        HostConfig: info['HostConfig'] as Record<string, unknown>,
      },
      {
        memoryBytes: 128 * 1024 * 1024,
        pidsLimit: 256,
        nanoCpus: 1e9,
        workDir: '/workspace',
        workspaceDir: session.workspaceDir,
        isNetworkEnabled: false,
      },
    );
    expect((config['Labels'] as Record<string, string>)[LABELS.session]).toBe(session.id);
    const mounts = info['Mounts'] as { Source: string; Destination: string }[];
    expect(mounts.map((m) => m.Destination)).toEqual(['/workspace']);
    expect(JSON.stringify(info['NetworkSettings'])).not.toMatch(/"HostPort"/);
  });

  it('runs without privileges: no capabilities, no-new-privs, seccomp, non-root (S6)', async () => {
    const status = await sh(
      'grep -E "^(CapEff|CapBnd|NoNewPrivs|Seccomp):" /proc/self/status; id -u',
    );
    expect(status.stdout).toMatch(/CapEff:\s+0000000000000000/);
    expect(status.stdout).toMatch(/CapBnd:\s+0000000000000000/);
    expect(status.stdout).toMatch(/NoNewPrivs:\s+1/);
    expect(status.stdout).toMatch(/Seccomp:\s+2/);
    expect(status.stdout.trim().split('\n').at(-1)).not.toBe('0');
    for (const attempt of [
      'mount -t tmpfs none /mnt',
      'chroot / true',
      'echo b > /proc/sysrq-trigger',
    ]) {
      const result = await sh(attempt);
      expect(result.exitCode, attempt).not.toBe(0);
    }
  });

  it('has a read-only root, a size-limited /tmp and a file-size limit (S4)', async () => {
    const root = await sh('touch /evil');
    expect(root.exitCode).not.toBe(0);
    expect(root.stderr).toMatch(/Read-only file system/);
    // /tmp is half the 128m memory limit: writing 80 MiB stops at 64 MiB.
    const tmp = await sh(
      'dd if=/dev/zero of=/tmp/fill bs=1M count=80 2>&1; stat -c %s /tmp/fill; rm -f /tmp/fill',
    );
    expect(tmp.stdout).toMatch(/No space left on device/);
    const size = Number(tmp.stdout.trim().split('\n').at(-1));
    expect(size).toBeLessThanOrEqual(64 * 1024 * 1024);
    const fsize = await sh('ulimit -f');
    expect(fsize.stdout.trim()).toBe(String(1024 * 1024)); // 1 GiB in 1 KiB blocks
    const workspace = await sh('echo ok > /workspace/w.txt && cat /workspace/w.txt');
    expect(workspace.stdout).toBe('ok\n');
  });

  it('has no network: only loopback, TCP and DNS fail fast (S5)', async () => {
    const interfaces = await sh('ls /sys/class/net');
    expect(interfaces.stdout.trim().split(/\s+/)).toEqual(['lo']);
    const started = performance.now();
    const probe = await sandbox.exec(['python3', '-'], {
      timeoutMs: 20_000,
      stdin: [
        'import socket',
        'for target in [("1.1.1.1", 80), ("example.com", 80)]:',
        '    try:',
        '        socket.create_connection(target, timeout=3).close()',
        '        print("CONNECTED", target[0])',
        '    except OSError as e:',
        '        print("FAILED", target[0], type(e).__name__)',
      ].join('\n'),
    });
    expect(performance.now() - started).toBeLessThan(6_000);
    expect(probe.stdout).toMatch(/FAILED 1\.1\.1\.1/);
    expect(probe.stdout).toMatch(/FAILED example\.com gaierror/);
    expect(probe.stdout).not.toMatch(/CONNECTED/);
  });
});
