import { expect, test, type Page } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { DEFAULT_MODEL } from './support/server';
import { openWorkbench, startRun, waitForOutcome } from './support/workbench';

const unavailable = browserUnavailableReason();
const CHANGED = 'gpt-e2e-changed';

/** Sets (or, with null, resets to inherited) the toolcall agent's model in Settings. */
async function setToolcallModel(page: Page, model: string | null): Promise<void> {
  await page.getByTestId('nav-config').click();
  await page.getByTestId('config-tab-toolcall').click();
  if (model === null) await page.getByTestId('config-reset-toolcall-model').click();
  else await page.getByTestId('config-field-toolcall-model').fill(model);
  await page.getByTestId('config-save').click();
  await expect(page.getByTestId('config-field-toolcall-model')).toHaveValue(model ?? DEFAULT_MODEL);
}

test('the same task on two profiles: the compare view lands on step 3, highlights the argument, and n goes to the next difference', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await openWorkbench(page);
  const task = `Please diverge at step three (compare ${Date.now()})`;
  await startRun(page, task, 'toolcall');
  await waitForOutcome(page);
  await expect(page.getByTestId('run-model')).toHaveText(DEFAULT_MODEL);

  await setToolcallModel(page, CHANGED);
  try {
    await startRun(page, task, 'toolcall');
    await waitForOutcome(page);
    await expect(page.getByTestId('run-model')).toHaveText(CHANGED);
  } finally {
    // the other specs expect the default model
    await setToolcallModel(page, null);
  }

  // the two runs, oldest first (the history lists the newest on top)
  const items = page.getByTestId('run-history-item').filter({ hasText: task });
  await expect(items).toHaveCount(2);
  const [b, a] = await items.evaluateAll((els) => els.map((el) => el.getAttribute('data-run-id')!));
  await page.getByTestId('history-compare-toggle').click();
  await page.locator(`[data-testid="history-compare-check"][data-run-id="${a}"]`).check();
  await page.locator(`[data-testid="history-compare-check"][data-run-id="${b}"]`).check();
  await page.getByTestId('history-compare-open').click();

  const view = page.getByTestId('compare-view');
  await expect(view).toHaveAttribute('data-state', 'ready');
  await expect(page.getByTestId('compare-status')).toContainText('first at step 3');
  await expect(page.getByTestId('compare-settings')).toContainText('llm.model');
  await expect(page.getByTestId('compare-settings')).toContainText(CHANGED);

  const current = page.locator('[data-testid="compare-row"][aria-current="true"]');
  await expect(current).toHaveAttribute('data-step-a', '3');
  await expect(current).toHaveAttribute('data-step-b', '3');
  await expect(current).toHaveAttribute('data-first-divergence', 'true');
  await expect(current).toBeInViewport();
  const arg = current.locator('[data-testid="compare-arg"][data-key="response"]');
  await expect(arg).toHaveAttribute('data-changed', 'true');
  await expect(arg.locator('.side-a del').first()).toBeVisible();
  await expect(arg.locator('.side-b ins').first()).toBeVisible();
  await expect(arg.locator('.side-b')).toContainText(`checked by ${CHANGED}`);
  await expect(page.locator('[data-testid="compare-row"][data-step-a="2"]')).toHaveAttribute(
    'data-status',
    'same',
  );
  await page.screenshot({ path: testInfo.outputPath('compare-step-3.png') });

  await page.keyboard.press('n');
  await expect(current).toHaveAttribute('data-step-a', '4');
  await expect(current.locator('[data-field="reply"]')).toHaveAttribute('data-changed', 'true');
  await expect(current).toBeInViewport();
  await page.keyboard.press('p');
  await expect(current).toHaveAttribute('data-step-a', '3');
  await page.screenshot({ path: testInfo.outputPath('compare-back.png') });
});
