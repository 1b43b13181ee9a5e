/**
 * A vitest globalSetup that points the integration suite at a second engine, chosen by
 * `WORKBENCH_TEST_ENGINE` (nothing happens without it):
 *
 * - `podman`: starts Podman's Docker-compatible service (`podman system service
 *   --time=0 unix:///PATH`, Debian's podman 4.3 + catatonit) on a socket of its own and
 *   loads the local sandbox image into it (`docker save | podman load`).
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
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { LOCAL_SANDBOX_IMAGE } from './docker-env';

const run = promisify(execFile);

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  const engine = process.env['WORKBENCH_TEST_ENGINE'];
  if (!engine) return undefined;
  if (engine !== 'podman')
    return fail(`WORKBENCH_TEST_ENGINE=${engine} is not an engine the tests know (podman)`);
  const dir = mkdtempSync(join(tmpdir(), 'wb-podman-'));
  const socket = join(dir, 'podman.sock');
  let service: ChildProcess;
  try {
    service = spawn('podman', ['system', 'service', '--time=0', `unix://${socket}`], {
      stdio: 'ignore',
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
    rmSync(dir, { recursive: true, force: true });
  };
}

function fail(reason: string): undefined {
  if (process.env['REQUIRE_DOCKER'] === '1') throw new Error(`REQUIRE_DOCKER=1 but ${reason}`);
  console.warn(`[tests] ${reason}; the Docker tests will skip`);
  process.env['DOCKER_HOST'] = `unix://${join(tmpdir(), 'wb-no-engine.sock')}`;
  return undefined;
}

async function waitFor(probe: () => Promise<unknown>, timeoutMs: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      await probe();
      return;
    } catch (error) {
      if (Date.now() - started > timeoutMs) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
