#!/usr/bin/env node
/**
 * `npm run test:engines`: the sandbox suite (policy, exec, lifecycle and sweep, limits)
 * against every second engine the tests can start here, one after the other (issue 18):
 * Podman's Docker-compatible service and a second dockerd on loopback TCP with TLS.
 * `second-engine.ts` starts each one; `npm run test:engines -- podman` runs one.
 */
import { spawnSync } from 'node:child_process';

const FILES = [
  'src-main/runtime/sandbox/sandbox-policy.int.test.ts',
  'src-main/runtime/sandbox/sandbox-exec.int.test.ts',
  'src-main/runtime/sandbox/sandbox-manager.int.test.ts',
  'src-main/runtime/sandbox/sandbox-limits.int.test.ts',
  // [sandbox] engines: the second engine and the machine's dockerd at once
  'src-main/runtime/sandbox/engine-pool.int.test.ts',
];
const ENGINES = ['podman', 'tls-dockerd'];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((engine) => !ENGINES.includes(engine));
if (unknown.length > 0) {
  console.error(
    `test-engines: unknown engine(s) ${unknown.join(', ')}; known: ${ENGINES.join(', ')}`,
  );
  process.exit(2);
}
for (const engine of wanted.length > 0 ? wanted : ENGINES) {
  console.log(`\n[test:engines] the sandbox suite against ${engine}`);
  const result = spawnSync('npx', ['vitest', 'run', '--project', 'integration', ...FILES], {
    stdio: 'inherit',
    env: { ...process.env, WORKBENCH_TEST_ENGINE: engine },
  });
  if (result.status !== 0) {
    console.error(`[test:engines] the sandbox suite failed against ${engine}`);
    process.exit(result.status ?? 1);
  }
}
