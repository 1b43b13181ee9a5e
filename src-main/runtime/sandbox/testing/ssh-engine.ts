/**
 * For tests: the machine's Docker engine reached over ssh, as `ssh://root@127.0.0.1:PORT`
 * would reach a remote one: an `sshd` of its own on a loopback port (its own host key and
 * config, key login only), an `ssh-agent` holding a client key, and a known_hosts file
 * with the server's key. docker-modem runs `docker system dial-stdio` through it.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from './wait-for';

const run = promisify(execFile);

export interface SshEngine {
  url: string;
  knownHosts: string;
  /** SSH_AUTH_SOCK of the agent that holds the client key */
  agentSocket: string;
  stop(): Promise<void>;
}

/** A port nobody listens on now (a stale sshd on a fixed port would answer with its key). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startSshEngine(): Promise<SshEngine> {
  const SSH_PORT = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'wb-sshd-'));
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const child of children) child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'host_key')]);
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'client_key')]);
    writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'client_key.pub')));
    const hostKey = readFileSync(join(dir, 'host_key.pub'), 'utf8').split(' ');
    const knownHosts = join(dir, 'known_hosts');
    writeFileSync(knownHosts, `[127.0.0.1]:${SSH_PORT} ${hostKey[0]} ${hostKey[1]}\n`);
    writeFileSync(
      join(dir, 'sshd_config'),
      [
        `Port ${SSH_PORT}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${join(dir, 'host_key')}`,
        `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
        `PidFile ${join(dir, 'sshd.pid')}`,
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'PermitRootLogin prohibit-password',
        'StrictModes no',
        'UsePAM no',
        '',
      ].join('\n'),
    );
    mkdirSync('/run/sshd', { recursive: true }); // sshd's privilege separation folder
    const sshd = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', join(dir, 'sshd_config')], {
      stdio: 'ignore',
    });
    children.push(sshd);
    const agentSocket = join(dir, 'agent.sock');
    const agent = spawn('ssh-agent', ['-D', '-a', agentSocket], { stdio: 'ignore' });
    children.push(agent);
    // Listeners for both now: a 'spawn' fired while awaiting the other is not replayed.
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve, reject) => {
            child.once('error', reject);
            child.once('spawn', () => resolve());
          }),
      ),
    );
    await waitFor(
      () =>
        run('ssh-add', [join(dir, 'client_key')], {
          env: { ...process.env, SSH_AUTH_SOCK: agentSocket },
        }),
      10_000,
    );
    // sshd answers once it listens: one login that runs the engine's CLI
    await waitFor(
      () =>
        run(
          'ssh',
          [
            '-p',
            String(SSH_PORT),
            '-o',
            `UserKnownHostsFile=${knownHosts}`,
            '-o',
            'BatchMode=yes',
            `${userInfo().username}@127.0.0.1`,
            'docker version --format {{.Server.Version}}',
          ],
          { env: { ...process.env, SSH_AUTH_SOCK: agentSocket }, timeout: 10_000 },
        ),
      15_000,
    );
    return {
      url: `ssh://${userInfo().username}@127.0.0.1:${SSH_PORT}`,
      knownHosts,
      agentSocket,
      stop,
    };
  } catch (error) {
    await stop();
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new Error(
      `the ssh engine did not start: ${(error as Error).message.split('\n')[0]} ${stderr}`,
      { cause: error },
    );
  }
}
