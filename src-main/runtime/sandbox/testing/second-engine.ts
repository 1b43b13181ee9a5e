/**
 * A vitest globalSetup that points the integration suite at a second engine, chosen by
 * `WORKBENCH_TEST_ENGINE` (nothing happens without it):
 *
 * - `podman`: starts Podman's Docker-compatible service (`podman system service
 *   --time=0 unix:///PATH`, Debian's podman 4.3 + catatonit) on a socket of its own and
 *   loads the local sandbox image into it (`docker save | podman load`).
 *
 * - `tls-dockerd`: a second `dockerd` (its own data and exec roots, no bridge) listening on
 *   a loopback TCP port with TLS, its CA and certificates made with openssl; the image
 *   is loaded with `docker save | docker load`. Workers get `DOCKER_HOST=tcp://...`,
 *   `DOCKER_TLS_VERIFY=1` and `DOCKER_CERT_PATH`.
 *
 * Every worker then sees `DOCKER_HOST` set to it, so the sandbox suite (policy, exec,
 * archive, cleanup) and its `docker` CLI fixtures run against that engine:
 *
 *   WORKBENCH_TEST_ENGINE=podman npx vitest run --project integration \
 *     src-main/runtime/sandbox/sandbox-policy.int.test.ts src-main/runtime/sandbox/sandbox-exec.int.test.ts
 *
 * When the engine cannot start, the run fails under REQUIRE_DOCKER=1; otherwise
 * DOCKER_HOST points at a socket nobody serves, so the Docker tests skip with the reason.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { LOCAL_SANDBOX_IMAGE } from './docker-env';
import { waitFor } from './wait-for';

const run = promisify(execFile);

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  const engine = process.env['WORKBENCH_TEST_ENGINE'];
  if (!engine) return undefined;
  if (engine === 'tls-dockerd') return startTlsDockerd();
  if (engine !== 'podman')
    return fail(
      `WORKBENCH_TEST_ENGINE=${engine} is not an engine the tests know (podman, tls-dockerd)`,
    );
  const dir = mkdtempSync(join(tmpdir(), 'wb-podman-'));
  const socket = join(dir, 'podman.sock');
  let service: ChildProcess;
  try {
    // In a folder of its own: Podman 4.3's conmon drops an `oom` file in its working
    // folder when a container is OOM-killed (the limits tests do that).
    service = spawn('podman', ['system', 'service', '--time=0', `unix://${socket}`], {
      stdio: 'ignore',
      cwd: dir,
    });
    await new Promise<void>((resolve, reject) => {
      service.once('error', reject);
      service.once('spawn', () => resolve());
    });
    await waitFor(() => run('curl', ['-sf', '--unix-socket', socket, 'http://d/_ping']), 15_000);
    // The image from the local Docker engine (podman keeps it as localhost/NAME).
    await run('sh', ['-c', `docker save ${LOCAL_SANDBOX_IMAGE} | podman load`], {
      timeout: 120_000,
      env: { ...process.env, DOCKER_HOST: '' },
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return fail(`Podman's service did not start: ${(error as Error).message.split('\n')[0]}`);
  }
  process.env['DOCKER_HOST'] = `unix://${socket}`;
  console.warn(`[tests] integration tests run against Podman at unix://${socket}`);
  return async () => {
    service.kill('SIGTERM');
    await killOrphanConmons();
    rmSync(dir, { recursive: true, force: true });
  };
}

/**
 * Podman keeps each API exec session's `conmon` pair for `exit_command_delay` (300 s by
 * default) after the command exits, container removed or not (about 150 pairs, 500 MiB,
 * after one run of the suite; see "Exec sessions linger" in the sandbox README). Kill
 * those whose container no longer exists, so the rest of the CI run does not carry them.
 */
async function killOrphanConmons(): Promise<void> {
  const { stdout } = await run('podman', ['ps', '-a', '-q', '--no-trunc']).catch(() => ({
    stdout: '',
  }));
  const live = new Set(stdout.split('\n').filter(Boolean));
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // gone meanwhile
    }
    const flag = argv.indexOf('-c');
    const container = flag >= 0 ? argv[flag + 1] : undefined;
    if (!argv[0]?.endsWith('conmon') || !container || live.has(container)) continue;
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** The port of the second dockerd: below the ephemeral range, away from the e2e ports. */
const TLS_PORT = Number(process.env['WORKBENCH_TEST_TLS_PORT'] ?? 31871);

/** A folder the TLS dockerd sees as an empty tmpfs of its own (a machine apart, for files). */
const UNSHARED_DIR = join(tmpdir(), 'wb-not-on-engine');

/** The second dockerd's own bridge, on a subnet of its own. */
const TLS_BRIDGE = 'wb-tls0';
const TLS_BRIDGE_ADDRESS = '172.31.251.1/24';

function linkExists(name: string): Promise<boolean> {
  return run('ip', ['link', 'show', name]).then(
    () => true,
    () => false,
  );
}

async function ensureBridge(): Promise<void> {
  if (await linkExists(TLS_BRIDGE)) return;
  await run('ip', ['link', 'add', 'name', TLS_BRIDGE, 'type', 'bridge']);
  await run('ip', ['addr', 'add', TLS_BRIDGE_ADDRESS, 'dev', TLS_BRIDGE]);
  await run('ip', ['link', 'set', TLS_BRIDGE, 'up']);
}

async function startTlsDockerd(): Promise<(() => Promise<void>) | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'wb-dockerd-'));
  const ssl = (args: string) => run('sh', ['-c', `cd ${dir} && openssl ${args}`]);
  let daemon: ChildProcess | undefined;
  let hadDocker0 = false;
  const env = {
    DOCKER_HOST: `tcp://127.0.0.1:${TLS_PORT}`,
    DOCKER_TLS_VERIFY: '1',
    DOCKER_CERT_PATH: dir,
  };
  try {
    // A CA of our own, a server certificate for 127.0.0.1 and a client certificate.
    await ssl(
      'req -x509 -newkey rsa:2048 -nodes -keyout ca-key.pem -out ca.pem -days 2 -subj /CN=wb-test-ca',
    );
    await ssl(
      'req -newkey rsa:2048 -nodes -keyout server-key.pem -out server.csr -subj /CN=127.0.0.1',
    );
    await run('sh', [
      '-c',
      `printf 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' > ${dir}/server.ext`,
    ]);
    await ssl(
      'x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -out server-cert.pem -days 2 -extfile server.ext',
    );
    await ssl('req -newkey rsa:2048 -nodes -keyout key.pem -out client.csr -subj /CN=client');
    await run('sh', ['-c', `printf 'extendedKeyUsage=clientAuth\n' > ${dir}/client.ext`]);
    await ssl(
      'x509 -req -in client.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -out cert.pem -days 2 -extfile client.ext',
    );
    hadDocker0 = await linkExists('docker0');
    await ensureBridge();
    // In a mount namespace of its own where UNSHARED_DIR is an empty tmpfs: this engine
    // does not see what the app writes there, as an engine on another machine would not
    // (engine-pool.int.test.ts: a workspace sent through the archive API). `unshare`
    // and `exec` keep one process, so the pid is dockerd's.
    mkdirSync(UNSHARED_DIR, { recursive: true });
    daemon = spawn(
      'unshare',
      [
        '--mount',
        '--propagation',
        'private',
        'sh',
        '-c',
        `mount -t tmpfs wb-unshared ${UNSHARED_DIR} && exec dockerd "$@"`,
        'dockerd',
        `--data-root=${dir}/root`,
        `--exec-root=${dir}/exec`,
        `--pidfile=${dir}/docker.pid`,
        `-H=tcp://127.0.0.1:${TLS_PORT}`,
        '--tlsverify',
        `--tlscacert=${dir}/ca.pem`,
        `--tlscert=${dir}/server-cert.pem`,
        `--tlskey=${dir}/server-key.pem`,
        // Never `--bridge=none`: a dockerd started so deletes the interface `docker0`,
        // which belongs to the machine's own engine (its bridge-network containers then
        // fail to start: "could not find bridge docker0"). Found the hard way.
        `--bridge=${TLS_BRIDGE}`,
        '--iptables=false',
        '--ip-masq=false',
      ],
      { stdio: 'ignore' },
    );
    await new Promise<void>((resolve, reject) => {
      daemon!.once('error', reject);
      daemon!.once('spawn', () => resolve());
    });
    const withEnv = { ...process.env, ...env };
    await waitFor(() => run('docker', ['version'], { env: withEnv, timeout: 5_000 }), 30_000);
    await run(
      'sh',
      [
        '-c',
        `docker save ${LOCAL_SANDBOX_IMAGE} | DOCKER_HOST=${env.DOCKER_HOST} DOCKER_TLS_VERIFY=1 DOCKER_CERT_PATH=${dir} docker load`,
      ],
      {
        timeout: 120_000,
        env: { ...process.env, DOCKER_HOST: '', DOCKER_TLS_VERIFY: '', DOCKER_CERT_PATH: '' },
      },
    );
  } catch (error) {
    daemon?.kill('SIGTERM');
    return fail(`the TLS dockerd did not start: ${(error as Error).message.split('\n')[0]}`);
  }
  Object.assign(process.env, env, { WORKBENCH_TEST_UNSHARED_DIR: UNSHARED_DIR });
  console.warn(`[tests] integration tests run against the TLS dockerd at ${env.DOCKER_HOST}`);
  return async () => {
    daemon?.kill('SIGTERM');
    await new Promise((r) => daemon?.once('exit', r) ?? r(undefined));
    await run('ip', ['link', 'delete', TLS_BRIDGE]).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    if (hadDocker0 && !(await linkExists('docker0'))) {
      throw new Error('the TLS dockerd deleted docker0, the bridge of the machine engine');
    }
  };
}

function fail(reason: string): undefined {
  if (process.env['REQUIRE_DOCKER'] === '1') throw new Error(`REQUIRE_DOCKER=1 but ${reason}`);
  console.warn(`[tests] ${reason}; the Docker tests will skip`);
  process.env['DOCKER_HOST'] = `unix://${join(tmpdir(), 'wb-no-engine.sock')}`;
  return undefined;
}
