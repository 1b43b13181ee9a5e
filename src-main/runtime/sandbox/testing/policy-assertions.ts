/**
 * The policy checks of reliability.md S1, written once and applied twice: to the create
 * options (unit test) and to `docker inspect` of a real container (integration test).
 * The shape taken is the part both have in common.
 */
import { expect } from 'vitest';

export interface PolicyView {
  User?: string;
  WorkingDir?: string;
  Labels?: Record<string, string> | null;
  ExposedPorts?: Record<string, unknown> | null;
  HostConfig: Record<string, unknown>;
}

export interface ExpectedLimits {
  memoryBytes: number;
  pidsLimit: number;
  nanoCpus: number;
  workDir: string;
  workspaceDir: string;
  isNetworkEnabled: boolean;
}

export function assertSandboxPolicy(view: PolicyView, limits: ExpectedLimits): void {
  const host = view.HostConfig;
  // Non-root user, numeric so images without such a passwd entry work too.
  expect(view.User).toMatch(/^\d+:\d+$/);
  expect(Number(view.User?.split(':')[0])).not.toBe(0);
  expect(view.WorkingDir).toBe(limits.workDir);
  // Network: none unless enabled; nothing published.
  expect(host['NetworkMode']).toBe(limits.isNetworkEnabled ? 'bridge' : 'none');
  expect(host['PortBindings'] ?? {}).toEqual({});
  expect(host['PublishAllPorts'] ?? false).toBe(false);
  expect(view.ExposedPorts ?? {}).toEqual({});
  // Privileges.
  expect(host['Privileged']).toBe(false);
  // ALL (Docker), or every capability spelled out (Podman's inspect lists what it dropped)
  const dropped = (host['CapDrop'] as string[] | null) ?? [];
  if (dropped.join() !== 'ALL') expect(dropped).toEqual(expect.arrayContaining(DEFAULT_CAPS));
  expect(host['CapAdd'] ?? []).toEqual([]);
  expect(host['SecurityOpt']).toContain('no-new-privileges');
  // Filesystem: read-only root, size-limited /tmp owned by the sandbox user.
  expect(host['ReadonlyRootfs']).toBe(true);
  const tmp = (host['Tmpfs'] as Record<string, string> | undefined)?.['/tmp'] ?? '';
  expect(tmp).toMatch(/size=\d+/);
  // owned by the sandbox user: uid= (Docker), or U (Podman, which refuses uid=)
  expect(tmp).toMatch(/uid=\d+|(^|,)U(,|$)/);
  // Resources: no swap beyond memory, CPU and pids limited, init reaps zombies.
  expect(host['Memory']).toBe(limits.memoryBytes);
  expect(host['MemorySwap']).toBe(limits.memoryBytes);
  expect(host['NanoCpus']).toBe(limits.nanoCpus);
  expect(host['PidsLimit']).toBe(limits.pidsLimit);
  expect(host['PidsLimit']).toBeLessThanOrEqual(256);
  expect(host['Init']).toBe(true);
  const ulimits = (host['Ulimits'] as { Name: string; Hard: number }[] | null) ?? [];
  // Podman's inspect names them RLIMIT_FSIZE, ...
  const names = ulimits.map((u) => u.Name.toLowerCase().replace(/^rlimit_/, '')).sort();
  expect(names).toEqual(['fsize', 'nofile', 'nproc']);
  // Binds: the session's workspace only; never the Docker socket.
  const binds = (host['Binds'] as string[] | null) ?? [];
  // (Podman's inspect adds the propagation options it applied: rw,rprivate,rbind)
  expect(binds).toHaveLength(1);
  expect(binds[0]).toMatch(
    new RegExp(
      `^${escapeRegExp(`${limits.workspaceDir}:${limits.workDir}:rw`)}(,rprivate,rbind)?$`,
    ),
  );
  expect(JSON.stringify(host)).not.toContain('docker.sock');
  expect(host['AutoRemove']).toBe(false);
}

/** the capabilities an engine grants by default: all of them must be dropped */
const DEFAULT_CAPS = [
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'NET_RAW',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
