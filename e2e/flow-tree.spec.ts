/**
 * Issue 17 item 1: a planning flow is a tree. Executor steps nest under their plan step,
 * a plan step from the plan opens its place in the timeline, each plan summary is said
 * once, and the planner's reply comes before its planning tool's result.
 */
import { expect, test } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { collectTimeline, openWorkbench } from './support/workbench';

const unavailable = browserUnavailableReason();

test('a flow run shown as a tree, with a plan step selected', async ({ page }, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await openWorkbench(page);
  await page.getByTestId('new-run').click();
  await page.getByTestId('task-input').fill('Plan a two-step greeting for the tree');
  await page.getByTestId('flow-select').check();
  await page.getByTestId('run-start').click();
  await expect(page.getByTestId('run-outcome')).toHaveText(/finished/, { timeout: 60_000 });

  const rows = await collectTimeline(page);
  const headers = rows.filter((r) => r.testId === 'timeline-plan-step');
  expect(headers.map((h) => h.attrs['data-plan-step'])).toEqual(['0', '1']);
  expect(headers.every((h) => h.attrs['data-status'] === 'completed')).toBe(true);
  const summaries = rows.filter((r) => /: 1 of 2 steps completed$/.test(r.text));
  expect(summaries.length).toBeLessThanOrEqual(1);
  const reply = rows.findIndex((r) => r.attrs['data-reply-only'] === 'true');
  const planningTool = rows.findIndex(
    (r) => r.testId === 'tool-call' && r.attrs['data-tool'] === 'planning',
  );
  expect(reply).toBeGreaterThan(-1);
  expect(reply).toBeLessThan(planningTool);

  // the second plan step, from the plan: its header is selected and its steps nest under it
  await page.getByTestId('plan-step').nth(1).getByRole('button').click();
  const selected = page.locator('[data-item-id][aria-selected="true"]');
  await expect(selected).toHaveAttribute('data-testid', 'timeline-plan-step');
  await expect(selected).toHaveAttribute('data-plan-step', '1');
  await expect(page.locator('.vrow.is-nested [data-testid="timeline-step"]').first()).toBeVisible();
  await expect(page.getByTestId('waterfall-bar').first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('flow-tree-plan-step-selected.png') });

  // folding the plan step hides its executor's steps
  const nestedBefore = await page.locator('.vrow.is-nested').count();
  await selected.getByRole('button', { name: /Collapse plan step 2/ }).click();
  await expect.poll(() => page.locator('.vrow.is-nested').count()).toBeLessThan(nestedBefore);
});
