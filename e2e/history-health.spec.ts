/**
 * Issue 11, items 5 and 6: each history row says "steps N/MAX" (not a bare "4/20" that
 * reads like a date) and the run's health (tool errors, stuck detections, duplicates);
 * the header has the same health line; the history filters "has errors" and "stuck".
 */
import { expect, test } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { openWorkbench, startRun, waitForOutcome } from './support/workbench';

const unavailable = browserUnavailableReason();

test('items 5 and 6: history rows and the header show steps and health; filters find errors and stuck runs', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await openWorkbench(page);
  const stamp = Date.now();
  const stuckTask = `Please get stuck on purpose ${stamp}`;
  const failingTask = `Run a failing command once more ${stamp}`;
  await startRun(page, stuckTask);
  await waitForOutcome(page);
  const header = page.getByTestId('run-health');
  await expect(header.locator('[data-health="stuck"]')).toHaveText('stuck 1×');
  await expect(header.locator('[data-health="duplicates"]')).toHaveText('2 duplicates');
  await startRun(page, failingTask);
  await expect(page.getByTestId('run-outcome')).toHaveText('finished with 1 tool error', {
    timeout: 60_000,
  });

  const row = (task: string) => page.getByTestId('run-history-item').filter({ hasText: task });
  const stuckHealth = row(stuckTask).getByTestId('history-health');
  await expect(stuckHealth).toContainText('steps 4/20');
  await expect(stuckHealth.locator('[data-health="stuck"]')).toHaveText('stuck 1×');
  await expect(stuckHealth.locator('[data-health="duplicates"]')).toHaveText('2 duplicates');
  const failingHealth = row(failingTask).getByTestId('history-health');
  await expect(failingHealth).toContainText('steps 2/20');
  await expect(failingHealth.locator('[data-health="toolErrors"]')).toHaveText('1 tool error of 2');
  await expect(row(failingTask)).toContainText('finished with 1 tool error');
  // no bare "N/MAX" anywhere in the list
  const listText = await page.locator('.history-list').innerText();
  expect(listText).not.toMatch(/(^|[^s\d] ?)· \d+\/\d+/);
  await page.screenshot({ path: testInfo.outputPath('history-health.png') });

  await page.getByTestId('history-search').fill(String(stamp));
  await page.getByTestId('history-errors').check();
  await expect(page.getByTestId('run-history-item')).toHaveCount(1);
  await expect(row(failingTask)).toBeVisible();
  await page.getByTestId('history-errors').uncheck();
  await page.getByTestId('history-stuck').check();
  await expect(page.getByTestId('run-history-item')).toHaveCount(1);
  await expect(row(stuckTask)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('history-stuck-filter.png') });
  await page.getByTestId('history-stuck').uncheck();
  await page.getByTestId('history-search').fill('');
});
