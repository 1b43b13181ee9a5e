/**
 * End-to-end specs. Web-mode specs drive the real UI in the system Chromium through
 * `workbench serve`, against the scripted OpenAI-compatible model server replaying
 * e2e/fixtures/scenarios.json. This config starts both (ports and token in
 * e2e/support/server.ts) with a fresh WORKBENCH_HOME whose config.toml points every
 * agent at the scripted server. Electron specs run only where an Electron binary exists
 * and say so when skipped.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { chromiumPath } from './e2e/support/chromium';
import {
  API_KEY_VAR,
  E2E_PORT,
  E2E_TOKEN,
  SCRIPTED_PORT,
  e2eConfigToml,
} from './e2e/support/server';

// Workers load this file again: the first load creates the home and passes it on in
// the environment, so every process agrees on one folder.
const home = (process.env['WORKBENCH_E2E_HOME'] ??= mkdtempSync(join(tmpdir(), 'workbench-e2e-')));
const configFile = join(home, 'config.toml');
if (!existsSync(configFile)) writeFileSync(configFile, e2eConfigToml());

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  timeout: 90_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1440, height: 900 },
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
  webServer: [
    {
      command: `node --import tsx src-main/runtime/llm/testing/serve-scripted.ts --scenarios e2e/fixtures/scenarios.json --port ${SCRIPTED_PORT}`,
      url: `http://127.0.0.1:${SCRIPTED_PORT}/_scripted/requests`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'pipe',
      stderr: 'pipe',
    },
    {
      command: `node bin/workbench.js serve --port ${E2E_PORT}`,
      // SIGTERM lets serve stop its runs and remove the session's sandbox container;
      // the default SIGKILL would leave it for the next start's orphan sweep.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
      url: `http://127.0.0.1:${E2E_PORT}/`,
      env: {
        WORKBENCH_HOME: home,
        WORKBENCH_SERVE_TOKEN: E2E_TOKEN,
        WORKBENCH_DEMO_DELAY_MS: '150',
        [API_KEY_VAR]: 'sk-e2e-not-a-real-key',
      },
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'pipe',
      stderr: 'pipe',
    },
  ],
});
