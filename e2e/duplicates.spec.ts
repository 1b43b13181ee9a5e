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

  // Scenario: the same content at turns 1, 3 and 4 (memory indexes 1, 5 and 7).
  const duplicates = page.locator('[data-testid="timeline-message"][data-duplicate="true"]');
  await expect(duplicates).toHaveCount(2);
  await expect(duplicates.nth(0)).toHaveAttribute('data-duplicate-of', '1');
  await expect(duplicates.nth(1)).toHaveAttribute('data-duplicate-of', '1 5');
  await expect(duplicates.nth(1)).toContainText('3rd time');
  const original = page.locator('[data-testid="timeline-message"][data-index="1"]');
  await expect(original).toHaveAttribute('data-repeated', '2');
  const different = page.locator('[data-testid="timeline-message"][data-index="3"]');
  await expect(different).not.toHaveAttribute('data-duplicate', 'true');

  // The link jumps to the first occurrence and selects it; the inspector shows it.
  await page.getByTestId('timeline').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await duplicates.nth(1).locator('[data-testid="duplicate-link"][data-target-index="1"]').click();
  await expect(original).toHaveAttribute('aria-selected', 'true');
  await expect(original).toBeInViewport();
  await expect(page.getByTestId('inspector')).toContainText('assistant message #1');
  await expect(page.getByTestId('context-at-step')).toContainText('Context at step 1');
  await page.screenshot({ path: testInfo.outputPath('duplicates.png') });

  // "duplicates only" keeps the duplicates and what they repeat.
  await page.getByTestId('filter-duplicates').click();
  await expect(page.locator('[data-testid="timeline-message"][data-role="assistant"]')).toHaveCount(
    3,
  );
  await page.screenshot({ path: testInfo.outputPath('duplicates-only.png') });
});
