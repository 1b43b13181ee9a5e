import { expect, test } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { openWorkbench, startRun, waitForOutcome } from './support/workbench';

const unavailable = browserUnavailableReason();

test('repeated responses are highlighted and linked to the earlier occurrences', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await openWorkbench(page);
  await startRun(page, 'Please repeat yourself a few times');
  await waitForOutcome(page);

  // Scenario: the same content at turns 1, 3 and 4, something else at turn 2.
  const duplicates = page.locator('[data-testid="timeline-message"][data-duplicate="true"]');
  await expect(duplicates).toHaveCount(2);
  const first = (await duplicates.nth(0).getAttribute('data-duplicate-of')) ?? '';
  expect(first).toMatch(/^\d+$/);
  const second = (await duplicates.nth(0).getAttribute('data-index')) ?? '';
  // the third repeat links to both earlier occurrences
  await expect(duplicates.nth(1)).toHaveAttribute('data-duplicate-of', `${first} ${second}`);
  await expect(duplicates.nth(1)).toContainText('3rd time');
  await expect(duplicates.nth(0)).toContainText('2nd time');

  // The link jumps to the first occurrence and selects it; the inspector shows it.
  await page.getByTestId('timeline').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await duplicates
    .nth(1)
    .locator(`[data-testid="duplicate-link"][data-target-index="${first}"]`)
    .click();
  const original = page.locator(`[data-testid="timeline-message"][data-index="${first}"]`);
  await expect(original).toHaveAttribute('aria-selected', 'true');
  await expect(original).toBeInViewport();
  await expect(original).toHaveAttribute('data-repeated', '2');
  await expect(original).not.toHaveAttribute('data-duplicate', 'true');
  await expect(page.getByTestId('inspector')).toContainText(`assistant message #${first}`);
  await expect(page.getByTestId('context-at-step')).toContainText('Context at step 1');
  await page.screenshot({ path: testInfo.outputPath('duplicates.png') });

  // "duplicates only" keeps the duplicates and what they repeat.
  await page.getByTestId('filter-duplicates').click();
  await expect(page.locator('[data-testid="timeline-message"][data-role="assistant"]')).toHaveCount(
    3,
  );
  await page.screenshot({ path: testInfo.outputPath('duplicates-only.png') });
});
