/**
 * Issue 17 item 5, as a user meets it in `workbench serve`: search steps through
 * highlighted matches, a link to a run's row survives a reload (and Back leaves the
 * run), and the history renames and deletes runs (with their files).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { openWorkbench, startRun, waitForOutcome } from './support/workbench';

const unavailable = browserUnavailableReason();

/** Ranges painted by the CSS highlights of the search (all, and in the selected row). */
function paintedMatches(page: Page) {
  return page.evaluate(() => {
    const registry = (
      globalThis as unknown as { CSS: { highlights: Map<string, { size: number }> } }
    ).CSS.highlights;
    return {
      all: registry.get('wb-search')?.size ?? 0,
      current: registry.get('wb-search-current')?.size ?? 0,
    };
  });
}

const selectedRow = (page: Page) => page.locator('[data-item-id][aria-selected="true"]');

/**
 * The timeline is virtualized and follows the newest row, so a row above the view is not
 * in the page: scroll from the top until it is shown (how much fits depends on the run
 * view's header and panels above the list).
 */
async function scrollUntilShown(page: Page, text: string): Promise<void> {
  const timeline = page.getByTestId('timeline');
  await timeline.evaluate((el) => (el.scrollTop = 0));
  for (let i = 0; i < 60; i++) {
    if (await timeline.getByText(text).first().isVisible()) return;
    await timeline.evaluate((el) => (el.scrollTop += el.clientHeight * 0.7));
    await page.waitForTimeout(50);
  }
  await expect(timeline.getByText(text).first()).toBeVisible();
}

test('search highlights and counts the matches and steps through them', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await openWorkbench(page);
  await startRun(page, `Please repeat yourself for the search check ${Date.now()}`);
  await waitForOutcome(page);
  const search = page.getByTestId('filter-search');
  await search.fill('listing');
  const count = page.getByTestId('search-count');
  await expect(count).toHaveAttribute('data-rows', /^[1-9]\d*$/);
  const rows = Number(await count.getAttribute('data-rows'));
  expect(rows).toBeGreaterThanOrEqual(4);
  // search no longer hides rows: the one reply without the word is still there
  const timeline = page.getByTestId('timeline');
  await scrollUntilShown(page, 'Something different this time.');
  await expect.poll(async () => (await paintedMatches(page)).all).toBeGreaterThan(0);

  await search.press('Enter');
  await expect(count).toHaveAttribute('data-place', '1');
  await expect(selectedRow(page)).toContainText(/listing/i);
  await expect.poll(async () => (await paintedMatches(page)).current).toBeGreaterThan(0);
  await search.press('Enter');
  await expect(count).toHaveAttribute('data-place', '2');
  await expect(count).toHaveText(new RegExp(`^2 of ${rows} rows · \\d+ matches$`));
  await page.screenshot({ path: testInfo.outputPath('search-matches.png') });
  await search.press('Shift+Enter');
  await expect(count).toHaveAttribute('data-place', '1');
  await page.getByTestId('search-prev').click();
  await expect(count).toHaveAttribute('data-place', String(rows));

  // "only matches" hides the rest; the keys still jump through the whole run
  await page.getByTestId('search-only').click();
  await expect(timeline.getByText('Something different this time.')).toHaveCount(0);
  await page.getByTestId('search-only').click();
  await page.getByTestId('timeline').focus();
  await page.keyboard.press('Home');
  await expect(selectedRow(page)).toHaveAttribute('data-kind', 'run');
  await page.keyboard.press('d');
  await expect(selectedRow(page)).toHaveAttribute('data-duplicate', 'true');
  await page.keyboard.press('End');
  await expect(selectedRow(page)).toHaveAttribute('data-testid', 'run-finished');
});

test('a link to a run and row reopens after a reload; Back leaves the run', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await openWorkbench(page);
  const task = `Please repeat yourself for the deep link ${Date.now()}`;
  await startRun(page, task);
  await waitForOutcome(page);
  const tool = page.getByTestId('tool-call').nth(2);
  await tool.click();
  const itemId = await tool.getAttribute('data-item-id');
  await expect(page).toHaveURL(new RegExp(`#/run/[^/]+/event/${itemId}$`));
  const link = page.url();

  await page.reload();
  await expect(page.getByTestId('run-outcome')).toHaveText('finished');
  await expect(selectedRow(page)).toHaveAttribute('data-item-id', itemId!);
  await expect(selectedRow(page)).toBeInViewport();
  await expect(page.getByTestId('inspector')).not.toContainText('Select a row');
  await page.screenshot({ path: testInfo.outputPath('deep-link-after-reload.png') });

  // a fresh tab opened on the link shows the same
  const other = await page.context().newPage();
  await other.goto(link);
  await expect(other.locator('[data-item-id][aria-selected="true"]')).toHaveAttribute(
    'data-item-id',
    itemId!,
  );
  await other.close();

  // another page is a new history entry; Back returns to the run and its row
  await page.getByTestId('new-run').click();
  await expect(page).toHaveURL(/#\/new$/);
  await page.goBack();
  await expect(page).toHaveURL(link);
  await expect(selectedRow(page)).toHaveAttribute('data-item-id', itemId!);
});

test('the history renames a run and deletes it with its files', async ({ page }, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await openWorkbench(page);
  const task = `say hello for the rename check ${Date.now()}`;
  await startRun(page, task);
  await waitForOutcome(page);
  const runId = /#\/run\/([^/]+)/.exec(page.url())?.[1];
  expect(runId).toBeTruthy();
  const row = page.locator(`[data-testid="run-history-item"][data-run-id="${runId}"]`);

  await page.getByTestId('history-rename').click();
  await page.getByTestId('history-rename-input').fill('Greeting baseline');
  await page.getByTestId('history-rename-input').press('Enter');
  await expect(row.getByTestId('history-title')).toHaveText('Greeting baseline');
  await page.screenshot({ path: testInfo.outputPath('history-renamed.png') });
  await page.reload();
  await expect(row.getByTestId('history-title')).toHaveText('Greeting baseline');

  const runsDir = join(process.env['WORKBENCH_E2E_HOME']!, 'runs');
  expect(existsSync(join(runsDir, `${runId}.jsonl`))).toBe(true);
  await page.getByTestId('history-delete').click();
  await page.screenshot({ path: testInfo.outputPath('history-delete-confirm.png') });
  await page.getByTestId('history-delete-confirm').click();
  await expect(row).toHaveCount(0);
  await expect(page.getByTestId('task-input')).toBeVisible();
  expect(readdirSync(runsDir).filter((name) => name.startsWith(runId!))).toEqual([]);
  await page.reload();
  await expect(page.getByTestId('app')).toHaveAttribute('data-app-state', 'ready');
  await expect(row).toHaveCount(0);
});
