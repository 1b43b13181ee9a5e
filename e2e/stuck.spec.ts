import { expect, test } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { openWorkbench, startRun, waitForOutcome } from './support/workbench';

const unavailable = browserUnavailableReason();

test('repeated empty-content tool calls show a stuck marker with its rule and the nudged step', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await openWorkbench(page);
  await startRun(page, 'Please get stuck on purpose');
  await waitForOutcome(page);

  const marker = page.getByTestId('stuck-marker').first();
  await expect(marker).toHaveAttribute('data-kind', 'tool_calls');
  await expect(marker).toContainText('the same tool calls');
  // the calls repeat with empty content: the tool-call signature is what matched
  const duplicates = page.locator('[data-testid="timeline-message"][data-duplicate="true"]');
  await expect(duplicates.first()).toContainText('same tool calls');

  await marker.click();
  await expect(page.getByTestId('inspector')).toContainText('Stuck detected');
  await page.screenshot({ path: testInfo.outputPath('stuck.png') });

  // The nudge went into the next step's request: the link selects that step, whose
  // context lists the nudge after the memory messages.
  const stuckStep = Number(await marker.getAttribute('data-count')) > 0;
  expect(stuckStep).toBe(true);
  await marker.getByTestId('nudge-link').click();
  const nudged = page.locator('[data-testid="timeline-step"][aria-selected="true"]');
  await expect(nudged).toContainText('nudged');
  await expect(page.getByTestId('context-at-step')).toContainText('the stuck nudge');
  await page.screenshot({ path: testInfo.outputPath('nudged-step.png') });
});
