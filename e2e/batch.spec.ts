/**
 * Batch runs from the UI (issue 18): start a batch of two tasks x two repeats, watch the
 * grid fill as runs end, open one run from its cell, and stop the batch while the runs
 * of the task whose model never answers are still going.
 */
import { expect, test } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { DEFAULT_MODEL } from './support/server';
import { openWorkbench } from './support/workbench';

const unavailable = browserUnavailableReason();

test('a batch from the UI: the grid fills, a cell opens its run, the batch stops', async ({
  page,
}) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await openWorkbench(page);
  const stamp = Date.now();
  await page.getByTestId('nav-batch').click();
  await page
    .getByTestId('batch-tasks')
    .fill(`which model answers (batch ${stamp})\ntake your time (batch ${stamp})`);
  await page.getByTestId('batch-agent').selectOption('toolcall');
  await page.getByTestId('batch-profile-default').check();
  await page.getByTestId('batch-repeat').fill('2');
  await page.getByTestId('batch-concurrency').fill('2');
  await page.getByTestId('batch-start').click();

  const view = page.getByTestId('batch-view');
  await expect(view).toHaveAttribute('data-batch-id', /^b-/);
  const batchId = await view.getAttribute('data-batch-id');
  await expect(page.getByTestId('batch-grid')).toBeVisible();
  const progress = page.getByTestId('batch-progress');
  await expect(progress).toHaveAttribute('data-total', '4');

  // The first task's two runs end (the grid fills); the second task's model never answers.
  const firstTask = page.locator(
    '[data-testid="batch-cell"][data-task="0"] [data-testid="batch-run"]',
  );
  await expect(firstTask.first()).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(firstTask.nth(1)).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(firstTask.first()).toHaveAttribute('data-outcome', 'finished');
  await expect(progress).toHaveAttribute('data-done', '2');
  await expect(progress).toHaveAttribute('data-running', '2');
  await expect(progress).toHaveAttribute('data-state', 'running');

  // A cell opens its run.
  const runId = await firstTask.first().getAttribute('data-run-id');
  await firstTask.first().click();
  await expect(page.getByTestId('run-outcome')).toHaveText('finished');
  await expect(page.getByTestId('run-model')).toHaveText(DEFAULT_MODEL);
  await expect(
    page.locator(`[data-testid="run-history-item"][data-run-id="${runId}"]`),
  ).toBeVisible();

  // Back to the batch, and stop it: the hanging runs end, the batch says stopped.
  await page.getByTestId('nav-batch').click();
  await expect(view).toHaveAttribute('data-batch-id', batchId ?? '');
  await page.getByTestId('batch-stop').click();
  await expect(progress).toHaveAttribute('data-state', 'stopped', { timeout: 15_000 });
  await expect(progress).toHaveAttribute('data-running', '0');
  await expect(progress).toHaveAttribute('data-done', '2');
  await expect(page.getByTestId('batch-resume')).toBeVisible();
});
