/**
 * Issue 25 items 6 and 10, as a user sees them.
 *
 * - A batch whose runs each have a failed tool call: the grid's chips say what the history
 *   and the run header say ("finished with 1 tool error", not "finished"); the cell's
 *   figures are one run's (the mean of its repeats, said as such), not a sum that reads
 *   like one run; the history lists the batch's runs under one entry with its tally, and
 *   filters by batch.
 * - "Run again" after the model was changed in Settings asks the model the run recorded
 *   (the scripted server's request log says which model was asked), marks the re-run, and
 *   "Run again with today's settings" asks the new one.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { DEFAULT_MODEL } from './support/server';
import {
  openWorkbench,
  requestsForTask,
  scriptedRequests,
  startRun,
  waitForOutcome,
} from './support/workbench';

const unavailable = browserUnavailableReason();
const CHANGED = 'gpt-e2e-changed';

test('the batch grid agrees with the history, shows per-run figures, and the history groups and filters the batch', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await openWorkbench(page);
  const task = `Run a failing command in a batch ${Date.now()}`;
  await page.getByTestId('nav-batch').click();
  await page.getByTestId('batch-tasks').fill(task);
  await page.getByTestId('batch-agent').selectOption('manus');
  await page.getByTestId('batch-repeat').fill('2');
  await page.getByTestId('batch-concurrency').fill('2');
  await page.getByTestId('batch-start').click();
  const view = page.getByTestId('batch-view');
  await expect(view).toHaveAttribute('data-batch-id', /^b-/);
  const batchId = (await view.getAttribute('data-batch-id')) ?? '';
  await expect(page.getByTestId('batch-progress')).toHaveAttribute('data-state', 'complete', {
    timeout: 60_000,
  });

  // Each chip is the history's verdict: the failed `ls` is a tool error.
  const chips = page.getByTestId('batch-run');
  await expect(chips).toHaveCount(2);
  for (const chip of await chips.all()) {
    await expect(chip).toHaveText('finished with 1 tool error');
    await expect(chip).toHaveAttribute('data-verdict', 'finished_with_errors');
  }
  // One run's figures: 2 steps each, shown as the mean of 2 runs (the total is 4 steps).
  const figures = page.getByTestId('batch-figures');
  await expect(figures).toHaveAttribute('data-runs', '2');
  await expect(figures).toHaveAttribute('data-mean-steps', '2');
  await expect(figures).toHaveAttribute('data-total-steps', '4');
  await expect(figures).toContainText(/per run 2 steps · \d+ tok · \d+ s \(mean of 2\)/);
  const meanTokens = Number(await figures.getAttribute('data-mean-tokens'));
  const totalTokens = Number(await figures.getAttribute('data-total-tokens'));
  expect(meanTokens).toBeGreaterThan(0);
  await expect(figures).not.toContainText(String(totalTokens));
  await page.screenshot({ path: testInfo.outputPath('batch-grid-verdicts.png') });
  await page.screenshot({ path: 'test-results/issue25-batch-grid-verdicts.png' });

  // The chip opens its run: the header and the history row say the same.
  const runId = (await chips.first().getAttribute('data-run-id')) ?? '';
  await chips.first().click();
  await expect(page.getByTestId('run-outcome')).toHaveText('finished with 1 tool error');
  const row = page.locator(`[data-testid="run-history-item"][data-run-id="${runId}"]`);
  await expect(row).toBeVisible();
  await expect(row).toHaveAttribute('data-verdict', 'finished_with_errors');

  // The history: one entry for the batch, with its counts and tally, open on its shown run.
  const group = page.locator(`[data-testid="history-batch"][data-batch-id="${batchId}"]`);
  await expect(group).toHaveCount(1);
  await expect(group).toHaveAttribute('data-runs', '2');
  await expect(group).toHaveAttribute('data-open', 'true');
  await expect(group.locator('[data-verdict="finished_with_errors"][data-count="2"]')).toHaveText(
    '2 finished with tool errors',
  );
  // closed, its runs leave the list; open again, they come back
  await group.getByTestId('history-batch-toggle').click();
  await expect(group).toHaveAttribute('data-open', 'false');
  await expect(row).toHaveCount(0);
  await group.getByTestId('history-batch-toggle').click();
  await expect(row).toBeVisible();

  // Filter by the batch: only its runs.
  await page.getByTestId('history-batch-filter').selectOption(batchId);
  await expect(page.getByTestId('run-history-item')).toHaveCount(2);
  await expect(page.getByTestId('history-batch')).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath('history-batch-filter.png') });
  await page.screenshot({ path: 'test-results/issue25-history-batch-filter.png' });
  // "not in a batch": none of them
  await page.getByTestId('history-batch-filter').selectOption('none');
  await expect(row).toHaveCount(0);
  await expect(page.getByTestId('history-batch')).toHaveCount(0);
  await page.getByTestId('history-batch-filter').selectOption('all');
});

test('Run again after a Settings change asks the recorded model; today’s settings are a labelled choice', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  const configFile = join(process.env['WORKBENCH_E2E_HOME'] ?? '', 'config.toml');
  const original = readFileSync(configFile, 'utf8');
  try {
    await openWorkbench(page);
    const task = `Which model are you? (run again ${Date.now()})`;
    await startRun(page, task, 'toolcall');
    await waitForOutcome(page);
    await expect(page.getByTestId('run-model')).toHaveText(DEFAULT_MODEL);
    const first = page.locator('[data-testid="run-history-item"][aria-current="true"]');
    const firstId = (await first.getAttribute('data-run-id')) ?? '';

    // The profile changes in Settings.
    await page.getByTestId('nav-config').click();
    await page.getByTestId('config-tab-toolcall').click();
    await page.getByTestId('config-field-toolcall-model').fill(CHANGED);
    await page.getByTestId('config-save').click();
    await expect(page.getByTestId('config-save-status')).toContainText('Saved');

    // "Run again": the model the run recorded.
    await page.locator(`[data-testid="run-history-item"][data-run-id="${firstId}"]`).click();
    await page.getByTestId('run-again').click();
    const origin = page.getByTestId('rerun-origin');
    await expect(origin).toHaveAttribute('data-rerun-of', firstId);
    await expect(origin).toHaveAttribute('data-settings', 'recorded');
    await expect(origin).toContainText(`Re-run of run ${firstId}`);
    await waitForOutcome(page);
    await expect(page.getByTestId('run-model')).toHaveText(DEFAULT_MODEL);
    const rerun = page.locator('[data-testid="run-history-item"][aria-current="true"]');
    const rerunId = (await rerun.getAttribute('data-run-id')) ?? '';
    expect(rerunId).not.toBe(firstId);
    await expect(rerun.getByTestId('history-rerun-of')).toHaveAttribute('data-rerun-of', firstId);
    await expect(rerun.getByTestId('history-rerun-of')).toHaveText('↻ re-run:');
    // listed right after the run it repeats
    const ids = await page
      .getByTestId('run-history-item')
      .evaluateAll((items) => items.map((i) => i.getAttribute('data-run-id')));
    expect(ids.indexOf(rerunId)).toBe(ids.indexOf(firstId) + 1);
    await page.screenshot({ path: testInfo.outputPath('run-again-recorded.png') });
    await page.screenshot({ path: 'test-results/issue25-run-again-recorded.png' });

    // "Run again with today's settings": the model Settings has now.
    await page.locator(`[data-testid="run-history-item"][data-run-id="${firstId}"]`).click();
    await expect(page.getByTestId('run-again-today')).toHaveText('Run again with today’s settings');
    await page.getByTestId('run-again-today').click();
    await expect(page.getByTestId('rerun-origin')).toHaveAttribute('data-settings', 'current');
    await waitForOutcome(page);
    await expect(page.getByTestId('run-model')).toHaveText(CHANGED);
    await expect(
      page.locator(
        '[data-testid="run-history-item"][aria-current="true"] [data-testid="history-rerun-of"]',
      ),
    ).toHaveText('↻ re-run (today’s settings):');

    // What the model server was asked, run by run.
    const requests = requestsForTask(await scriptedRequests(), task);
    expect(requests.map((r) => r.model)).toEqual([DEFAULT_MODEL, DEFAULT_MODEL, CHANGED]);
  } finally {
    writeFileSync(configFile, original);
  }
});
