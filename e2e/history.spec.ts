import { expect, test } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { collectTimeline, openWorkbench, startRun, waitForOutcome } from './support/workbench';

const unavailable = browserUnavailableReason();

test('a finished run reopened from the history shows the same timeline', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await openWorkbench(page);
  const task = `Please repeat yourself for the history check ${Date.now()}`;
  await startRun(page, task);
  await waitForOutcome(page);
  const live = await collectTimeline(page);
  expect(live.length).toBeGreaterThan(10);

  // A fresh page: nothing in memory, the run comes back from the history on disk.
  await openWorkbench(page);
  const item = page.getByTestId('run-history-item').filter({ hasText: task });
  await expect(item).toHaveAttribute('data-status', 'finished');
  await item.click();
  await expect(page.getByTestId('run-outcome')).toHaveText('finished');
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-count', String(live.length));
  const reopened = await collectTimeline(page);
  expect(reopened).toEqual(live);
  await page.getByTestId('timeline').evaluate((el) => (el.scrollTop = 0));
  await page.screenshot({ path: testInfo.outputPath('reopened.png') });
});
