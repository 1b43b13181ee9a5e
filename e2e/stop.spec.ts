import { expect, test } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { openWorkbench, startRun } from './support/workbench';

const unavailable = browserUnavailableReason();

test('stopping a run shows it as cancelled within a second', async ({ page }, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await openWorkbench(page);
  // The scripted model never answers this one: the run waits on the model call.
  await startRun(page, 'Please take your time with this');
  await expect(page.getByTestId('agent-state')).toHaveText('RUNNING');
  await expect(page.getByTestId('step-counter')).toHaveText('1 / 20');

  const clicked = Date.now();
  await page.getByTestId('run-stop').click();
  await expect(page.getByTestId('run-outcome')).toHaveText('cancelled', { timeout: 1_000 });
  const elapsed = Date.now() - clicked;
  testInfo.annotations.push({ type: 'stop latency', description: `${elapsed} ms` });
  expect(elapsed).toBeLessThan(1_000);
  await expect(page.getByTestId('run-finished')).toHaveAttribute('data-outcome', 'cancelled');
  await expect(page.locator('[data-testid="run-history-item"]').first()).toHaveAttribute(
    'data-status',
    'cancelled',
  );
  await page.screenshot({ path: testInfo.outputPath('cancelled.png') });
});
