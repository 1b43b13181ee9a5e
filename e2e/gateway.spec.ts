import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { openWorkbench } from './support/workbench';

const unavailable = browserUnavailableReason();
const PYTHON = join(process.env['WORKBENCH_TEST_PYENV'] ?? '/opt/workbench-pyenv', 'bin', 'python');
const AGENT = fileURLToPath(
  new URL('../src-main/runtime/gateway/testing/python_agent.py', import.meta.url),
);

/** Runs the Python agent (official `openai` package) against the gateway; resolves its output. */
function runPythonAgent(url: string, token: string): Promise<{ code: number | null; out: string }> {
  const child = spawn(PYTHON, [AGENT], {
    env: {
      PATH: process.env['PATH'] ?? '',
      OPENAI_BASE_URL: url,
      OPENAI_API_KEY: token,
      RUN_NAME: 'e2e-python',
      TASK: 'What is the weather in Lisbon?',
    },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
}

test('the Gateway panel turned on: a Python agent through it appears as a live run in the timeline', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  test.skip(!existsSync(PYTHON), `no Python test venv (${PYTHON}); run scripts/setup-system.sh`);
  await openWorkbench(page);
  await page.getByTestId('gateway-status').click();
  const panel = page.getByTestId('gateway-panel');
  await expect(panel).toBeVisible();
  await panel.getByTestId('gateway-toggle').click();
  await expect(page.getByTestId('gateway-status')).toHaveAttribute('data-status', 'on');
  const url = (await panel.getByTestId('gateway-url').textContent()) ?? '';
  const token = (await panel.getByTestId('gateway-token').textContent()) ?? '';
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  expect(token).toMatch(/^wbg-/);
  await page.screenshot({ path: testInfo.outputPath('gateway-panel.png') });
  await page.getByTestId('gateway-status').click();

  const agent = await runPythonAgent(url, token);
  expect(agent.out).toContain('Sunny in Lisbon.');
  expect(agent.code).toBe(0);

  // the run is listed, and stays live until the agent has been idle for a while
  const item = page.getByTestId('run-history-item').filter({ hasText: 'weather in Lisbon' });
  await expect(item).toBeVisible();
  await item.click();
  await expect(page.getByTestId('agent-state')).toHaveText('RUNNING');
  const steps = page.getByTestId('timeline-step');
  await expect(steps).toHaveCount(2);
  await expect(steps.first()).toHaveAttribute('data-agent', 'external: e2e-python');
  const call = page.getByTestId('tool-call').first();
  await expect(call).toContainText('get_weather');
  await expect(call).toContainText('sunny in Lisbon');
  await expect(page.getByTestId('timeline')).toContainText('Sunny in Lisbon.');
  await page.screenshot({ path: 'test-results/gateway-live-run.png' });
  await page.screenshot({ path: testInfo.outputPath('gateway-live-run.png') });

  // turned off: its open run ends
  await page.getByTestId('gateway-status').click();
  await page.getByTestId('gateway-panel').getByTestId('gateway-toggle').click();
  await expect(page.getByTestId('gateway-status')).toHaveAttribute('data-status', 'off');
  await expect(page.getByTestId('run-outcome')).toHaveText('finished');
});
