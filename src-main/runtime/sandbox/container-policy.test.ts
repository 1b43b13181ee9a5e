/**
 * The container policy asserted on the create options (reliability.md 2.3, test S1 on
 * the CPU side; sandbox-policy.int.test.ts asserts the same on `docker inspect`).
 */
import { describe, expect, it } from 'vitest';
import { sandboxSchema } from '../config/schema';
import {
  LABELS,
  buildContainerSpec,
  isUnknownTmpfsOption,
  parseMemory,
  PROCESS_RLIMIT,
  policyHash,
  sandboxUser,
  type PolicyInput,
} from './container-policy';
import { assertSandboxPolicy } from './testing/policy-assertions';

const owner = { instanceId: 'inst-1', host: 'host-a', pid: 4242, pidStart: '777' };

function input(overrides: Partial<PolicyInput['settings']> = {}): PolicyInput {
  return {
    settings: sandboxSchema.parse({ image: 'agent-workbench/sandbox:local', ...overrides }),
    sessionId: 'sess-1',
    workspaceDir: '/home/u/.agent-workbench/workspaces/sess-1',
    user: { uid: 1000, gid: 1000 },
    owner,
  };
}

describe('container policy (create options)', () => {
  it("adapts /tmp's owner to an engine that refuses uid= (Podman), and sets nproc explicitly", () => {
    const docker = buildContainerSpec(input()).HostConfig;
    expect(docker.Tmpfs['/tmp']).toMatch(/,uid=1000,gid=1000,/);
    const podman = buildContainerSpec({ ...input(), tmpfsOwner: 'U' }).HostConfig;
    expect(podman.Tmpfs['/tmp']).toMatch(/^rw,nosuid,nodev,size=\d+,mode=1777,U$/);
    expect(docker.Ulimits).toContainEqual({
      Name: 'nproc',
      Soft: PROCESS_RLIMIT,
      Hard: PROCESS_RLIMIT,
    });
    // what Podman 4.3 answers to uid= (measured), and what it must not be confused with
    expect(
      isUnknownTmpfsOption(
        new Error(
          '(HTTP code 500) server error - container create: unknown mount option "uid=1000": invalid mount option',
        ),
      ),
    ).toBe(true);
    expect(isUnknownTmpfsOption(new Error('unknown mount option "size=1"'))).toBe(false);
  });

  it('applies every control of the default policy (S1)', () => {
    const spec = buildContainerSpec(input());
    assertSandboxPolicy(
      {
        User: spec.User,
        WorkingDir: spec.WorkingDir,
        Labels: spec.Labels,
        ExposedPorts: spec.ExposedPorts,
        HostConfig: spec.HostConfig,
      },
      {
        memoryBytes: 512 * 1024 * 1024,
        pidsLimit: 256,
        nanoCpus: 1e9,
        workDir: '/workspace',
        workspaceDir: '/home/u/.agent-workbench/workspaces/sess-1',
        isNetworkEnabled: false,
      },
    );
  });

  it('labels the container with the app, the instance, the owner process and the session', () => {
    const { Labels } = buildContainerSpec(input());
    expect(Labels).toMatchObject({
      [LABELS.managed]: 'true',
      [LABELS.instance]: 'inst-1',
      [LABELS.session]: 'sess-1',
      [LABELS.host]: 'host-a',
      [LABELS.pid]: '4242',
      [LABELS.pidStart]: '777',
    });
    expect(Labels[LABELS.policy]).toMatch(/^[0-9a-f]{16}$/);
  });

  it('takes limits, image and network from [sandbox]', () => {
    const spec = buildContainerSpec(
      input({
        memory_limit: '1g',
        cpu_limit: 2.5,
        pids_limit: 64,
        network_enabled: true,
        work_dir: '/work',
        image: 'python:3.12-slim',
      }),
    );
    expect(spec.Image).toBe('python:3.12-slim');
    expect(spec.HostConfig.Memory).toBe(1024 ** 3);
    expect(spec.HostConfig.MemorySwap).toBe(1024 ** 3);
    expect(spec.HostConfig.NanoCpus).toBe(2.5e9);
    expect(spec.HostConfig.PidsLimit).toBe(64);
    expect(spec.HostConfig.NetworkMode).toBe('bridge');
    expect(spec.HostConfig.PortBindings).toEqual({});
    expect(spec.WorkingDir).toBe('/work');
    expect(spec.HostConfig.Binds).toEqual(['/home/u/.agent-workbench/workspaces/sess-1:/work:rw']);
  });

  it('keeps /tmp at most half the memory limit (tmpfs pages count against it)', () => {
    const spec = buildContainerSpec(input({ memory_limit: '64m' }));
    expect(spec.HostConfig.Tmpfs['/tmp']).toContain(`size=${32 * 1024 * 1024},`);
    const big = buildContainerSpec(input({ memory_limit: '4g' }));
    expect(big.HostConfig.Tmpfs['/tmp']).toContain(`size=${256 * 1024 * 1024},`);
  });

  it('refuses a workspace path that would be misread as a bind separator', () => {
    expect(() => buildContainerSpec({ ...input(), workspaceDir: '/tmp/a:b' })).toThrow(/":"/);
  });

  it('changes the policy hash when a setting that shapes the container changes', () => {
    const base = policyHash(input());
    expect(policyHash(input())).toBe(base);
    expect(policyHash(input({ network_enabled: true }))).not.toBe(base);
    expect(policyHash(input({ memory_limit: '1g' }))).not.toBe(base);
    expect(policyHash({ ...input(), user: { uid: 1001, gid: 1001 } })).not.toBe(base);
    // The per-command timeout does not shape the container.
    expect(policyHash(input({ timeout: 5 }))).toBe(base);
  });
});

describe('sandbox user', () => {
  it('is never root: 1000:1000 when the app runs as root or the OS has no uids', () => {
    expect(sandboxUser(0, 0)).toEqual({ uid: 1000, gid: 1000 });
    expect(sandboxUser(undefined, undefined)).toEqual({ uid: 1000, gid: 1000 });
  });

  it("is the host user's uid/gid otherwise, so workspace files belong to that user", () => {
    expect(sandboxUser(501, 20)).toEqual({ uid: 501, gid: 20 });
    expect(sandboxUser(1234, 0)).toEqual({ uid: 1234, gid: 1234 });
  });
});

describe('memory limit parsing', () => {
  it('reads Docker-style sizes', () => {
    expect(parseMemory('512m')).toBe(512 * 1024 ** 2);
    expect(parseMemory('1g')).toBe(1024 ** 3);
    expect(parseMemory('1.5G')).toBe(1.5 * 1024 ** 3);
    expect(parseMemory('65536k')).toBe(64 * 1024 ** 2);
  });

  it('says which key is wrong and why', () => {
    expect(() => parseMemory('lots')).toThrow(/\[sandbox\] memory_limit "lots"/);
    expect(() => parseMemory('1m')).toThrow(/minimum of 6m/);
  });
});
