import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('.', import.meta.url));
const alias = { '@shared': `${root}src-shared` };

// Projects: fast unit tests per layer, and integration tests (real Docker engine, real
// servers and processes), which `npm test` runs after the unit tests.
// Unit tests that drive the scripted model server through the real client take 2-3 s
// on an idle 2-core machine and over 5 s (vitest's default) on a busy one: the limit is
// there to catch hangs, not to time them.
const UNIT_TIMEOUT_MS = 30_000;
export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit-node',
          environment: 'node',
          testTimeout: UNIT_TIMEOUT_MS,
          include: ['src-shared/**/*.test.ts', 'src-main/runtime/**/*.test.ts'],
          exclude: ['**/*.int.test.ts'],
        },
      },
      {
        resolve: {
          // Electron cannot start here: the host and Electron glue run against a mock.
          alias: { ...alias, electron: `${root}src-main/electron/testing/electron-mock.ts` },
        },
        test: {
          name: 'host',
          environment: 'node',
          testTimeout: UNIT_TIMEOUT_MS,
          include: ['src-main/{host,electron,preload,cli}/**/*.test.ts'],
          exclude: ['**/*.int.test.ts'],
        },
      },
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          testTimeout: UNIT_TIMEOUT_MS,
          include: ['src-renderer/**/*.test.{ts,tsx}'],
          setupFiles: [`${root}src-renderer/testing/setup.ts`],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          environment: 'node',
          include: ['src-*/**/*.int.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // WORKBENCH_TEST_ENGINE=podman: the suite runs against a second engine (first,
          // so the leftover check looks at that engine too). After the whole suite, no
          // sandbox container of this run may remain.
          globalSetup: [
            `${root}src-main/runtime/sandbox/testing/second-engine.ts`,
            `${root}src-main/runtime/sandbox/testing/no-leftover-containers.ts`,
          ],
          // Docker-backed tests share one engine; run files one at a time on 2 cores.
          fileParallelism: false,
        },
      },
    ],
  },
});
