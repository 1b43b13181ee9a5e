/**
 * Issue 30, live export in the UI (docs/telemetry.md): with `[telemetry] otlp_endpoint`
 * pointing at a receiver that is down, a run still finishes as it would, and the top bar
 * shows the export's failures with the last reason; its popover names the endpoint and
 * the receiver `serve` itself offers.
 */
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { startPrivateServer, type PrivateServer } from './support/private-server';

const unavailable = browserUnavailableReason();
let server: PrivateServer;
let deadPort = 0;

test.beforeAll(async () => {
  if (unavailable) return;
  // a port nothing listens on: the receiver is down
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  deadPort = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
  server = await startPrivateServer({
    // no [llm] key: the demo model answers; no sandbox needed for the point made here
    configToml: `[sandbox]\nuse_sandbox = false\n\n[telemetry]\notlp_endpoint = "http://127.0.0.1:${deadPort}"\n`,
  });
});
test.afterAll(async () => {
  await server?.stop();
});

test('a live-export receiver that is down: the run finishes, the top bar shows the counted failures', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await page.goto(server.url);
  await expect(page.getByTestId('app')).toHaveAttribute('data-app-state', 'ready');
  await page.getByTestId('new-run').click();
  await page.getByTestId('task-input').fill('Say hello');
  await page.getByTestId('agent-select').selectOption('toolcall');
  await page.getByTestId('run-start').click();
  await expect(page.getByTestId('run-outcome')).not.toHaveText('', { timeout: 60_000 });
  await expect(page.getByTestId('run-outcome')).not.toHaveText(/error/);

  const badge = page.getByTestId('telemetry-status');
  await expect(badge).toHaveAttribute('data-status', 'failing', { timeout: 20_000 });
  await expect(badge).toContainText(/OTLP export: \d+ failed/);
  await expect(badge).toHaveAttribute('title', /Last failure: .*ECONNREFUSED/);
  await badge.click();
  const details = page.getByTestId('telemetry-details');
  await expect(details).toContainText(`http://127.0.0.1:${deadPort}`);
  await expect(details).toContainText('The runs are not affected');
  await expect(details).toContainText(/OTLP receiver.*\/v1\/traces/);
  await page.screenshot({ path: testInfo.outputPath('telemetry-failing.png') });
});

test('Settings → Telemetry shows [telemetry] with where each value comes from, checks and saves it', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await page.goto(server.url);
  await expect(page.getByTestId('app')).toHaveAttribute('data-app-state', 'ready');
  await page.getByTestId('nav-config').click();
  await page.getByTestId('settings-tab-telemetry').click();
  const endpoint = page.getByTestId('settings-field-telemetry-otlp_endpoint');
  await expect(endpoint).toHaveValue(`http://127.0.0.1:${deadPort}`);
  await expect(endpoint).toHaveAttribute('data-source', 'file');
  const port = page.getByTestId('settings-field-telemetry-receiver_port');
  await expect(port).toHaveValue('0');
  await expect(port).toHaveAttribute('data-source', 'default');
  await endpoint.fill('localhost:4318');
  await expect(page.getByRole('alert').filter({ hasText: 'must be an http://' })).toBeVisible();
  await endpoint.fill('http://127.0.0.1:4318');
  await port.fill('4319');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-status')).toHaveText(
    'Saved. The next run uses these settings.',
  );
  await expect(port).toHaveAttribute('data-source', 'file');
  const text = readFileSync(join(server.home, 'config.toml'), 'utf8');
  expect(text).toContain('otlp_endpoint = "http://127.0.0.1:4318"');
  expect(text).toContain('receiver_port = 4319');
  await page.screenshot({ path: testInfo.outputPath('settings-telemetry.png'), fullPage: true });
});
