/**
 * `[sandbox] engines` on real engines (issue 18 item 3): sandboxes spread over several
 * engines, each container's calls going to its own engine, an engine that is down
 * skipped, per-engine caps holding (and a session beyond their sum waiting, not failing).
 *
 * The two-engine part runs in `npm run test:engines` (part of `npm test`), where
 * DOCKER_HOST is the second engine (Podman's service, or a TLS dockerd given here by its
 * own entry with cert_path) and the machine's dockerd is the other. Checks use each
 * engine's docker CLI: an independent view of where the containers are.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxChangedEvent } from '@shared/events';
import type { EngineEntry } from '../config/engine-address';
import { LABELS } from './container-policy';
import { currentOwner, processStartTime } from './owner';
import { SandboxManager } from './sandbox-manager';
import { Session } from '../session/session';
import { probeDocker } from './testing/docker-env';
import { localSettings, tempSession } from './testing/sandbox-fixture';
import { startSshEngine, type SshEngine } from './testing/ssh-engine';

const run = promisify(execFile);
const engine = await probeDocker();

const MACHINE_SOCKET = '/var/run/docker.sock';
const NOBODY_SOCKET = '/tmp/wb-no-engine-here.sock';
/** sshd comes with openssh-server (scripts/setup-system.sh); required under REQUIRE_DOCKER=1 */
const sshdReady = existsSync('/usr/sbin/sshd') || process.env['REQUIRE_DOCKER'] === '1';
if (!sshdReady)
  console.warn('[tests] the ssh:// engine tests skip: no /usr/sbin/sshd (openssh-server)');
/** the TLS run: a folder the second engine cannot see (testing/second-engine.ts) */
const unsharedDir = process.env['WORKBENCH_TEST_UNSHARED_DIR'];
const secondHost = process.env['WORKBENCH_TEST_ENGINE'] ? process.env['DOCKER_HOST'] : undefined;

/** Ids of this manager's containers on one engine, as that engine's docker CLI lists them. */
async function containersOn(manager: SandboxManager, host: 'machine' | 'second') {
  const env =
    host === 'machine'
      ? { ...process.env, DOCKER_HOST: `unix://${MACHINE_SOCKET}`, DOCKER_TLS_VERIFY: '' }
      : process.env;
  const { stdout } = await run(
    'docker',
    ['ps', '-aq', '--no-trunc', '--filter', `label=${LABELS.instance}=${manager.owner.instanceId}`],
    { env },
  );
  return stdout.split('\n').filter(Boolean).sort();
}

describe.skipIf(!engine.available)('[sandbox] engines', () => {
  const managers: SandboxManager[] = [];
  const newManager = () => {
    const manager = new SandboxManager();
    managers.push(manager);
    return manager;
  };
  afterAll(async () => {
    for (const manager of managers) await manager.dispose();
  });

  it('skips an engine that does not answer, and says where the sandbox went', async () => {
    const manager = newManager();
    const session = tempSession();
    const events: SandboxChangedEvent[] = [];
    manager.watch(session.id, (e) => events.push(e));
    const settings = localSettings({
      cpu_limit: 0.5,
      engines: [{ url: `unix://${NOBODY_SOCKET}` }, { url: `unix://${MACHINE_SOCKET}` }],
    });
    // the pre-flight and status views: available, saying which engine does not answer
    const probe = await manager.probe({ engines: settings.engines, timeoutMs: 3_000 });
    expect(probe).toMatchObject({ isAvailable: true });
    expect(probe.version).toMatch(
      new RegExp(`^\\S+ at unix://${MACHINE_SOCKET} \\(1 of 2 engines do not answer\\)$`),
    );
    const sandbox = await manager.acquire(session, settings);
    expect((await sandbox.exec(['echo', 'here'], { timeoutMs: 10_000 })).stdout).toBe('here\n');
    expect(events.find((e) => e.status === 'ready')?.engine).toBe(`unix://${MACHINE_SOCKET}`);
    expect(await containersOn(manager, 'machine')).toEqual([sandbox.id]);
    await session.close();
    expect(await containersOn(manager, 'machine')).toEqual([]);
  });

  it('names every engine and why when none can take the sandbox', async () => {
    const manager = newManager();
    const session = tempSession();
    const settings = localSettings({
      engines: [{ url: `unix://${NOBODY_SOCKET}` }, { url: 'unix:///tmp/wb-nor-here.sock' }],
    });
    const probe = await manager.probe({ engines: settings.engines, timeoutMs: 3_000 });
    expect(probe.isAvailable).toBe(false);
    expect(probe.error).toMatch(
      new RegExp(`^unix://${NOBODY_SOCKET}: .+; unix:///tmp/wb-nor-here.sock: `),
    );
    const failure = manager.acquire(session, settings);
    await expect(failure).rejects.toThrow(/No engine of \[sandbox\] engines can take a sandbox/);
    await expect(failure).rejects.toThrow(
      new RegExp(`unix://${NOBODY_SOCKET}: .+; unix:///tmp/wb-nor-here.sock: `),
    );
    await session.close();
  });

  describe.skipIf(!sshdReady)('over ssh', () => {
    let ssh: SshEngine;
    const savedAgent = process.env['SSH_AUTH_SOCK'];
    beforeAll(async () => {
      ssh = await startSshEngine();
      process.env['SSH_AUTH_SOCK'] = ssh.agentSocket;
    }, 60_000);
    afterAll(async () => {
      if (savedAgent === undefined) delete process.env['SSH_AUTH_SOCK'];
      else process.env['SSH_AUTH_SOCK'] = savedAgent;
      await ssh?.stop();
    });

    it('runs a sandbox on an engine reached by ssh://, with its host key checked', async () => {
      const manager = newManager();
      const session = tempSession();
      const events: SandboxChangedEvent[] = [];
      manager.watch(session.id, (e) => events.push(e));
      const settings = localSettings({
        cpu_limit: 0.5,
        engines: [
          { url: ssh.url, known_hosts: ssh.knownHosts },
          { url: `unix://${NOBODY_SOCKET}` },
        ],
      });
      const sandbox = await manager.acquire(session, settings);
      expect(events.find((e) => e.status === 'ready')?.engine).toMatch(
        /^ssh:\/\/.+@127\.0\.0\.1:\d+$/,
      );
      const result = await sandbox.exec(
        ['sh', '-c', 'echo over ssh > /workspace/f; cat /workspace/f'],
        {
          timeoutMs: 20_000,
        },
      );
      expect(result).toMatchObject({ exitCode: 0, stdout: 'over ssh\n' });
      expect((await sandbox.readFile('/workspace/f')).data.toString()).toBe('over ssh\n');
      expect(await containersOn(manager, 'machine')).toEqual([sandbox.id]);
      await session.close();
      expect(await containersOn(manager, 'machine')).toEqual([]);
    }, 60_000);

    it('refuses an engine whose host key is not the one in known_hosts, and says so', async () => {
      const manager = newManager();
      const session = tempSession();
      const impostor = `${ssh.knownHosts}.other`;
      const [name] = readFileSync(ssh.knownHosts, 'utf8').split(' ');
      writeFileSync(
        impostor,
        `${name} ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOtherKeyOtherKeyOtherKeyOtherKeyOtherKey0\n`,
      );
      const settings = localSettings({ engines: [{ url: ssh.url, known_hosts: impostor }] });
      await expect(manager.acquire(session, settings)).rejects.toThrow(
        /was not trusted: the host key of \[127\.0\.0\.1\]:\d+ differs from the one in known_hosts/,
      );
      expect(await containersOn(manager, 'machine')).toEqual([]);
      await session.close();
    }, 60_000);

    it('a refused ssh login and an ssh port nobody answers say so, not "start Docker" (issue 26 item 11)', async () => {
      const dir = mkdtempSync(join(process.env['TMPDIR'] ?? '/tmp', 'wb-agent-'));
      const emptyAgent = join(dir, 'agent.sock');
      const { stdout } = await run('ssh-agent', ['-a', emptyAgent]);
      const agentPid = Number(/SSH_AGENT_PID=(\d+)/.exec(stdout)?.[1]);
      process.env['SSH_AUTH_SOCK'] = emptyAgent;
      try {
        const session = tempSession();
        const refused = newManager().acquire(
          session,
          localSettings({ engines: [{ url: ssh.url, known_hosts: ssh.knownHosts }] }),
        );
        await expect(refused).rejects.toThrow(
          /refused the ssh login: none of the keys in your ssh agent \(SSH_AUTH_SOCK=.*agent\.sock\) was accepted.*ssh-add.*Try `ssh -p \d+ root@127\.0\.0\.1 docker version`/,
        );
        await expect(refused).rejects.not.toThrow(/systemctl|All configured authentication/);
        await session.close();
      } finally {
        process.env['SSH_AUTH_SOCK'] = ssh.agentSocket;
        if (agentPid) process.kill(agentPid);
      }
      const session = tempSession();
      const nobody = ssh.url.replace(/:\d+$/, ':9'); // the discard port: nothing listens
      const unreachable = newManager().acquire(
        session,
        localSettings({ engines: [{ url: nobody, known_hosts: ssh.knownHosts }] }),
      );
      await expect(unreachable).rejects.toThrow(
        /Cannot reach the engine ssh:\/\/.*:9 over ssh: nothing accepts ssh connections/,
      );
      await expect(unreachable).rejects.not.toThrow(/systemctl/);
      await session.close();
    }, 60_000);
  });

  describe.runIf(secondHost)('over two engines', () => {
    const secondEntry = (max: number): EngineEntry => ({
      url: secondHost!,
      max_containers: max,
      // The TLS dockerd: given by address and certificate folder, as a user would write it.
      ...(process.env['DOCKER_CERT_PATH'] ? { cert_path: process.env['DOCKER_CERT_PATH'] } : {}),
    });

    it('spreads sandboxes by free room, each call going to its engine; beyond the caps a session waits', async () => {
      const manager = newManager();
      const settings = localSettings({
        cpu_limit: 0.5,
        memory_limit: '128m',
        engines: [secondEntry(2), { url: `unix://${MACHINE_SOCKET}`, max_containers: 2 }],
      });
      const sessions = [0, 1, 2, 3].map(() => tempSession());
      // Runs hold their sandboxes (otherwise a waiting session takes an idle one's slot).
      const leases = sessions.map((session) => manager.lease(session.id));
      const sandboxes = [];
      for (const session of sessions) sandboxes.push(await manager.acquire(session, settings));
      const ids = sandboxes.map((s) => s.id);
      const onSecond = await containersOn(manager, 'second');
      const onMachine = await containersOn(manager, 'machine');
      expect(onSecond).toHaveLength(2);
      expect(onMachine).toHaveLength(2);
      expect([...onSecond, ...onMachine].sort()).toEqual([...ids].sort());

      // Calls about a container go to the engine that has it: exec, archive, inspect.
      for (const [index, sandbox] of sandboxes.entries()) {
        const result = await sandbox.exec(
          ['sh', '-c', `echo ${index} > /workspace/n; cat /workspace/n`],
          {
            timeoutMs: 10_000,
          },
        );
        expect(result.stdout).toBe(`${index}\n`);
        expect((await sandbox.readFile('/workspace/n')).data.toString()).toBe(`${index}\n`);
      }

      // Both engines are at their cap: a fifth session waits (queued), then gets the room
      // the first one leaves, on the engine that room was on.
      const fifth = tempSession();
      const statuses: string[] = [];
      manager.watch(fifth.id, (e) => statuses.push(e.status));
      const waiting = manager.acquire(fifth, settings);
      await new Promise((r) => setTimeout(r, 500));
      expect(statuses).toEqual(['queued']);
      const freedOnSecond = onSecond.includes(ids[0]!);
      leases[0]!();
      await sessions[0]!.close();
      const late = await waiting;
      expect((await late.exec(['echo', 'late'], { timeoutMs: 10_000 })).stdout).toBe('late\n');
      expect(
        (await containersOn(manager, freedOnSecond ? 'second' : 'machine')).includes(late.id),
      ).toBe(true);

      for (const release of leases) release();
      for (const session of [...sessions.slice(1), fifth]) await session.close();
      expect(await containersOn(manager, 'second')).toEqual([]);
      expect(await containersOn(manager, 'machine')).toEqual([]);
    });

    it.runIf(unsharedDir)(
      "sends a workspace the engine cannot see through the archive API, its files the sandbox user's",
      async () => {
        const manager = newManager();
        const settings = localSettings({ cpu_limit: 0.5, engines: [secondEntry(4)] });
        // A folder this engine does not see (the TLS dockerd has its own empty tmpfs there).
        const dir = mkdtempSync(join(unsharedDir!, 'ws-'));
        mkdirSync(join(dir, 'src'));
        writeFileSync(join(dir, 'src', 'main.py'), 'print(6 * 7)\n');
        writeFileSync(join(dir, 'notes.txt'), 'hello');
        const session = new Session(`seed-${Date.now()}`, dir);
        const sandbox = await manager.acquire(session, settings);
        const run = await sandbox.exec(
          [
            'sh',
            '-c',
            'python3 src/main.py; cat notes.txt; echo; touch src/new && stat -c %u src src/main.py src/new',
          ],
          { timeoutMs: 20_000 },
        );
        expect(run.stdout).toBe(
          `42\nhello\n${[sandbox.uid, sandbox.uid, sandbox.uid].join('\n')}\n`,
        );
        expect(readdirSync(dir).sort()).toEqual(['notes.txt', 'src']); // the probe's marker is gone
        await session.close();

        // A folder it does see (bound from this machine): nothing is sent, nothing left over.
        const shared = tempSession();
        writeFileSync(join(shared.workspaceDir, 'here.txt'), 'bound');
        const bound = await manager.acquire(shared, settings);
        await bound.exec(['sh', '-c', 'cat here.txt > made.txt'], { timeoutMs: 20_000 });
        expect(readFileSync(join(shared.workspaceDir, 'made.txt'), 'utf8')).toBe('bound');
        expect(readdirSync(shared.workspaceDir).sort()).toEqual(['here.txt', 'made.txt']);
        await shared.close();
      },
    );

    it('sweeps the orphans of a dead instance on every engine of the list', async () => {
      const settings = localSettings({
        cpu_limit: 0.5,
        memory_limit: '128m',
        engines: [secondEntry(1), { url: `unix://${MACHINE_SOCKET}`, max_containers: 1 }],
      });
      // An instance owned by a process that then dies (as if SIGKILLed): other managers'
      // sweeps leave its containers alone while it lives.
      const owner = spawn('sleep', ['60'], { stdio: 'ignore' });
      const pid = owner.pid!;
      const crashed = new SandboxManager({
        owner: {
          instanceId: `crashed-${pid}`,
          host: currentOwner().host,
          pid,
          pidStart: processStartTime(pid) ?? '',
        },
      });
      managers.push(crashed);
      const [a, b] = [tempSession(), tempSession()];
      await crashed.acquire(a, settings);
      await crashed.acquire(b, settings);
      expect(await containersOn(crashed, 'second')).toHaveLength(1);
      expect(await containersOn(crashed, 'machine')).toHaveLength(1);
      owner.kill('SIGKILL');
      await new Promise((r) => owner.once('exit', r));

      const survivor = newManager();
      survivor.engine.configure(settings.engines);
      const swept = await survivor.sweepOrphans();
      expect(swept.removed.length).toBeGreaterThan(0);
      expect(await containersOn(crashed, 'second')).toEqual([]);
      expect(await containersOn(crashed, 'machine')).toEqual([]);
    });
  });
});
