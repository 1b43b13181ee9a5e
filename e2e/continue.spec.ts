/**
 * Continue a finished run in the UI (issue 25, "Also build"): a Manus run writes a note
 * in its workspace and finishes; under it the user types a follow-up in "Continue this
 * run" and presses Enter; the continuation opens, says what it continues (a link), runs
 * in the same workspace (its command reads the note the first run left, the same bytes)
 * and finishes; the model got the whole first conversation plus the follow-up; the
 * history nests the continuation under the run.
 */
import { expect, test } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import {
  openWorkbench,
  requestsForTask,
  scriptedRequests,
  startRun,
  waitForOutcome,
} from './support/workbench';

const unavailable = browserUnavailableReason();
const FOLLOW_UP = 'Read the note you wrote back to me.';

test('continue a finished run: message box, continuation in the same workspace, nested in the history', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await openWorkbench(page);
  const task = `Please continue me later (${Date.now()})`;
  await startRun(page, task);
  await waitForOutcome(page);
  const parentId = await page
    .getByTestId('run-history-item')
    .filter({ hasText: task })
    .first()
    .getAttribute('data-run-id');
  expect(parentId).toBeTruthy();

  // The box under the finished run: nothing to send while it is empty.
  const panel = page.getByTestId('continue-panel');
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('Continue this run');
  await expect(panel.getByTestId('continue-submit')).toBeDisabled();
  await panel.getByTestId('continue-message').fill(FOLLOW_UP);
  await expect(panel.getByTestId('continue-submit')).toBeEnabled();
  await page.screenshot({ path: testInfo.outputPath('continue-box.png') });
  await panel.getByTestId('continue-message').press('Enter');

  // The continuation opens live, names its run, and finishes.
  const origin = page.getByTestId('fork-origin');
  await expect(origin).toHaveAttribute('data-kind', 'continue');
  await expect(origin).toContainText(`Continues run ${parentId} after its step 2`);
  await expect(page.getByTestId('run-title')).toHaveText(FOLLOW_UP);
  await waitForOutcome(page);
  await expect(page.getByTestId('branch-start')).toBeVisible();
  // ending as the first run did (terminate) is no repeat
  await expect(page.getByTestId('run-health')).not.toContainText('duplicate');

  // In the history: right under the run it continues, one level deeper.
  const continuation = page.locator(
    `[data-testid="run-history-item"][data-continue-of="${parentId}"]`,
  );
  await expect(continuation).toHaveCount(1);
  await expect(continuation).toContainText('↳ continued after step 2:');
  await expect(
    page.locator('li.history-row[data-depth="1"]').filter({ has: continuation }),
  ).toHaveCount(1);
  const order = await page
    .getByTestId('run-history-item')
    .evaluateAll((items) => items.map((i) => i.getAttribute('data-run-id')));
  const continuationId = await continuation.getAttribute('data-run-id');
  expect(order.indexOf(continuationId)).toBe(order.indexOf(parentId) + 1);
  await page.screenshot({ path: testInfo.outputPath('continue-nested.png') });

  // The model: the continuation's first request is the first run's whole conversation
  // (its note's output included) plus the follow-up; its command read the same note.
  const requests = requestsForTask(await scriptedRequests(), task);
  const texts = (r: { messages: { role: string; content?: unknown }[] }) =>
    r.messages.map((m) => `${m.role}: ${String(m.content ?? '')}`);
  const firstIndex = requests.findIndex((r) => texts(r).includes(`user: ${FOLLOW_UP}`));
  expect(firstIndex).toBeGreaterThan(0);
  const parentLast = requests[firstIndex - 1]!;
  const first = requests[firstIndex]!;
  expect(texts(first).slice(0, parentLast.messages.length - 1)).toEqual(
    texts(parentLast).slice(0, -1),
  );
  const toolOutputs = (r: { messages: { role: string; content?: unknown }[] }) =>
    r.messages.filter((m) => m.role === 'tool').map((m) => String(m.content ?? ''));
  const note = /\d{12,}/.exec(toolOutputs(first)[0] ?? '')?.[0];
  expect(note).toBeTruthy();
  const afterRead = requests[firstIndex + 1]!;
  expect(toolOutputs(afterRead).at(-1)).toContain(note!);

  // The link goes back to the run it continues.
  await page.getByTestId('origin-link').click();
  await expect(page.getByTestId('run-title')).toHaveText(task);
});
