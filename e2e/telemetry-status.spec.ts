/**
 * Issue 30, live export in the UI (docs/telemetry.md): with `[telemetry] otlp_endpoint`
 * pointing at a receiver that is down, a run still finishes as it would, and the top bar
 * shows the export's failures with the last reason; its popover names the endpoint and
 * the receiver `serve` itself offers.
 */
import { createServer, type AddressInfo } from 'node:net';
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
