/**
 * Issue 25 item 9: a page left open while `workbench serve` is restarted. The new server
 * has a new token, so the page can never get back in; it used to say "reconnecting…"
 * for ever. Now it learns the token is the reason, stops, and says to open the new URL.
 */
import { expect, test } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { e2eConfigToml } from './support/server';
import { startPrivateServer, type PrivateServer } from './support/private-server';

const unavailable = browserUnavailableReason();
let servers: PrivateServer[] = [];

test.afterEach(async () => {
  for (const server of servers.reverse()) await server.stop();
  servers = [];
});

test('a page whose serve was restarted with a new token says so and stops reconnecting', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  const first = await startPrivateServer({ configToml: e2eConfigToml(), isTokenRandom: true });
  servers.push(first);
  await page.goto(first.url);
  await expect(page.getByTestId('app')).toHaveAttribute('data-app-state', 'ready');
  await expect(page.getByTestId('connection-lost')).toHaveCount(0);

  await first.stop();
  await expect(page.getByTestId('connection-lost')).toContainText('reconnecting');
  const second = await startPrivateServer({
    configToml: e2eConfigToml(),
    home: first.home,
    port: first.port,
    isTokenRandom: true,
  });
  servers.push(second);
  expect(new URL(second.url).searchParams.get('token')).not.toBe(
    new URL(first.url).searchParams.get('token'),
  );

  const banner = page.getByTestId('connection-ended');
  await expect(banner).toHaveAttribute('data-end', 'token-rejected');
  await expect(banner).toContainText('The workbench server was restarted');
  await expect(banner).toContainText('Open the new URL printed in the terminal');
  await expect(page.getByTestId('connection-lost')).toHaveText('disconnected — server restarted');
  // it stopped: no more attempts on the socket, whatever time passes
  let attempts = 0;
  page.on('websocket', () => (attempts += 1));
  await page.waitForTimeout(3000);
  expect(attempts).toBe(0);
  await expect(page.getByTestId('connection-lost')).not.toContainText('reconnecting');
  await page.screenshot({ path: testInfo.outputPath('serve-restarted.png') });

  // the new URL works
  await page.goto(second.url);
  await expect(page.getByTestId('app')).toHaveAttribute('data-app-state', 'ready');
  await expect(page.getByTestId('connection-ended')).toHaveCount(0);
});
