/**
 * Issue 17 item 6, "waiting made visible": while a model call waits out a scripted 429,
 * the timeline shows a pending-call row (model, ticking time, attempt n of max, the
 * retry's reason inline); a profile whose base_url points at a closed port ends the run
 * with the real cause, not a generic "Network error". The waterfall then shows the
 * retried step's backoff as a wait segment of its own.
 */
import { createServer } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { DEFAULT_MODEL, SCRIPTED_URL } from './support/server';
import { openWorkbench, startRun, waitForOutcome } from './support/workbench';

const unavailable = browserUnavailableReason();

/** A port nothing listens on: bound by us a moment ago, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Sets (or, with null, resets) toolcall's settings in the config editor and saves. */
async function setToolcall(page: Page, values: Record<string, string | null>): Promise<void> {
  await page.getByTestId('nav-config').click();
  await expect(page.getByTestId('config-editor')).toBeVisible();
  await page.getByTestId('config-tab-toolcall').click();
  // max_retries sits under "Advanced"
  const advanced = page.locator('details.advanced');
  if ((await advanced.getAttribute('open')) === null) await advanced.locator('summary').click();
  for (const [key, value] of Object.entries(values)) {
    if (value === null) {
      const reset = page.getByTestId(`config-reset-toolcall-${key}`);
      if ((await reset.count()) > 0) await reset.click();
    } else {
      await page.getByTestId(`config-field-toolcall-${key}`).fill(value);
    }
  }
  await page.getByTestId('config-save').click();
  await expect(page.getByTestId('config-save-status')).toContainText('Saved');
}

test('a call waiting out a 429 shows a pending row; a refused connection names its cause', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await openWorkbench(page);
  try {
    // e2e config has max_retries = 0; this agent gets 3 (4 attempts).
    await setToolcall(page, { max_retries: '3' });
    await startRun(page, `Wait out a rate limit (${Date.now()})`, 'toolcall');

    const row = page.getByTestId('pending-call');
    await expect(row).toBeVisible();
    await expect(row).toContainText(DEFAULT_MODEL);
    // the 429 arrives, the client waits its retry-after of 4 s
    const retry = row.getByTestId('pending-call-retry');
    await expect(retry).toHaveAttribute('data-status', '429');
    await expect(retry).toContainText('Rate limit reached for gpt-4o-e2e');
    await expect(row.getByTestId('pending-call-attempt')).toHaveText('attempt 2 of 4');
    await expect(row).toContainText('Waiting to retry');
    const elapsed = row.getByTestId('pending-call-elapsed');
    const before = await elapsed.textContent();
    await expect(elapsed).not.toHaveText(before ?? '', { timeout: 3_000 }); // it ticks
    await page.screenshot({ path: testInfo.outputPath('pending-call-429.png') });

    await waitForOutcome(page);
    await expect(page.getByTestId('pending-call')).toHaveCount(0);
    await expect(
      page.locator('[data-testid="timeline-message"][data-role="assistant"]'),
    ).toContainText('The rate limit has passed');

    // The waterfall tells the 4 s backoff from the model's time: the retried step's bar
    // has a wait segment of its own, named in its title.
    const retriedBar = page.locator('[data-testid="waterfall-bar"]:not([data-retries="0"])');
    await expect(retriedBar).toHaveCount(1);
    await expect(retriedBar).toHaveAttribute('title', /waited [\d.]+ s: [\d.]+ s retry backoff/);
    expect(Number(await retriedBar.getAttribute('data-wait-ms'))).toBeGreaterThanOrEqual(3_500);
    const waitSegment = retriedBar.getByTestId('waterfall-wait');
    await expect
      .poll(async () => (await waitSegment.boundingBox())?.height ?? 0)
      .toBeGreaterThan(10);
    await page
      .getByTestId('waterfall')
      .screenshot({ path: testInfo.outputPath('waterfall-retry-wait.png') });

    const port = await closedPort();
    const baseUrl = `http://127.0.0.1:${port}/v1`;
    await setToolcall(page, { base_url: baseUrl, max_retries: null });
    await startRun(page, `Say hello (refused ${Date.now()})`, 'toolcall');
    const finished = page.getByTestId('run-finished');
    await expect(finished).toBeVisible({ timeout: 30_000 });
    await expect(finished).toContainText(
      `Nothing is listening at ${baseUrl} (connection refused): is the server running?`,
    );
    await expect(finished).toContainText('check base_url of profile');
    await expect(finished).not.toContainText('Network error');
    await page.screenshot({ path: testInfo.outputPath('refused-connection.png') });

    // The issue's own example: port 9 is one Node's fetch will not connect to at all.
    await setToolcall(page, { base_url: 'http://127.0.0.1:9/v1' });
    await startRun(page, `Say hello (port 9 ${Date.now()})`, 'toolcall');
    await expect(page.getByTestId('run-finished')).toContainText(
      "http://127.0.0.1:9/v1 uses port 9, which Node's fetch refuses to connect to",
      { timeout: 30_000 },
    );
    await page.screenshot({ path: testInfo.outputPath('blocked-port.png') });
  } finally {
    // leave the config as the other specs expect it
    await setToolcall(page, { base_url: null, max_retries: null });
    await page.getByTestId('config-tab-toolcall').click();
    await expect(page.getByTestId('config-field-toolcall-base_url')).toHaveValue(SCRIPTED_URL);
  }
});
