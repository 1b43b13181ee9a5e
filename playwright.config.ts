/**
 * End-to-end specs. Web-mode specs drive the real UI in the system Chromium through
 * `workbench serve`, which this config starts itself on a fixed port and token (both
 * in e2e/support/server.ts). Electron specs run only where an Electron binary exists
 * and say so when skipped.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { chromiumPath } from './e2e/support/chromium';
import { E2E_PORT, E2E_TOKEN } from './e2e/support/server';

const home = mkdtempSync(join(tmpdir(), 'workbench-e2e-'));

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
      ],
    },
    screenshot: 'only-on-failure',
    trace: 'off',
  },
  webServer: {
    command: `node bin/workbench.js serve --port ${E2E_PORT}`,
    url: `http://127.0.0.1:${E2E_PORT}/`,
    env: { WORKBENCH_HOME: home, WORKBENCH_SERVE_TOKEN: E2E_TOKEN, WORKBENCH_DEMO_DELAY_MS: '150' },
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
