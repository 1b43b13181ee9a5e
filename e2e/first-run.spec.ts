import { expect, test } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { E2E_URL } from './support/server';

const unavailable = browserUnavailableReason();

test('a run started from the UI streams in and reaches FINISHED', async ({ page }, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await page.goto(E2E_URL);
  await expect(page.getByTestId('run-empty')).toBeVisible();
  await page.getByTestId('task-input').fill('Say hello from the end-to-end test');
  await page.getByTestId('start-run').click();

  await expect(page.getByTestId('agent-state')).toHaveText('RUNNING');
  await expect(page.getByTestId('agent-state')).toHaveText('FINISHED', { timeout: 15_000 });
  await expect(page.getByTestId('run-outcome')).toHaveText('finished');
  await expect(page.getByTestId('step-counter')).toHaveText(/^2 \/ \d+$/);
  const events = page.getByTestId('event-list').locator('li');
  await expect(events.first()).toHaveAttribute('data-type', 'run.started');
  await expect(events.last()).toHaveAttribute('data-type', 'run.finished');
  await page.screenshot({ path: testInfo.outputPath('first-run.png'), fullPage: true });
});

test('the page refuses to run without the token in its URL', async ({ page }) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await page.goto(E2E_URL.replace(/\?token=.*/, ''));
  await expect(page.getByRole('alert')).toContainText('access token');
});
