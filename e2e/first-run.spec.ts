import { expect, test } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { E2E_URL } from './support/server';
import { openWorkbench, startRun, waitForOutcome } from './support/workbench';

const unavailable = browserUnavailableReason();

test('a run streams in live: text as it arrives, the step counter and the state badge', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await openWorkbench(page);
  await expect(page.getByTestId('run-empty')).toBeVisible();
  await startRun(page, 'Please stream slowly and compute 6*7');

  await expect(page.getByTestId('agent-state')).toHaveText('RUNNING');
  await expect(page.getByTestId('step-counter')).toHaveText('1 / 20');
  // the first answer streams: a growing row before the message is stored
  const streaming = page.locator('[data-testid="timeline-message"][data-streaming="true"]');
  await expect(streaming).toBeVisible();
  const early = (await streaming.textContent()) ?? '';
  await expect
    .poll(async () => ((await streaming.textContent()) ?? '').length, { timeout: 10_000 })
    .toBeGreaterThan(early.length);
  await page.screenshot({ path: testInfo.outputPath('streaming.png') });

  await expect(page.getByTestId('step-counter')).toHaveText('2 / 20', { timeout: 30_000 });
  await waitForOutcome(page);
  // one badge: the state while it ran, the outcome (green: nothing failed) once it ended
  await expect(page.getByTestId('agent-state')).toHaveCount(0);
  await expect(page.getByTestId('run-outcome')).toHaveAttribute('data-tone', 'good');
  await expect(page.getByTestId('run-stop')).toHaveCount(0);
  await expect(page.getByTestId('timeline-step')).toHaveCount(2);
  await expect(page.locator('[data-testid="tool-call"][data-tool="python_execute"]')).toHaveCount(
    1,
  );
  await expect(page.locator('[data-testid="tool-call"][data-tool="terminate"]')).toHaveAttribute(
    'data-status',
    'ok',
  );
  await expect(page.locator('[data-streaming="true"]')).toHaveCount(0);
  await expect(
    page.locator('[data-testid="timeline-message"][data-role="assistant"]').last(),
  ).toContainText('The answer is 42');
  await expect(page.getByTestId('run-finished')).toHaveAttribute('data-outcome', 'finished');
  // the python call needed the session's sandbox: the status in the top bar follows it
  await expect(page.getByTestId('sandbox-status')).not.toHaveAttribute('data-status', 'none');
  await page.screenshot({ path: testInfo.outputPath('finished.png') });
  // the theme follows the system
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: testInfo.outputPath('finished-dark.png') });
});

test('the page refuses to run without the token in its URL', async ({ page }) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await page.goto(E2E_URL.replace(/\?token=.*/, ''));
  await expect(page.getByRole('alert')).toContainText('access token');
});
