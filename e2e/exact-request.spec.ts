/**
 * Issue 17, items 2 and 4: the inspector shows a step's exact request — parameters, the
 * tools with their schemas, the raw JSON body the model server received, a diff against
 * the previous step's request — and a long command's output appears while it runs.
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

test('item 2: the full request with tools and parameters, and a diff against the previous step', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  const task = `Run a failing command, then show me the request ${Date.now()}`;
  await openWorkbench(page);
  await startRun(page, task);
  await waitForOutcome(page, 'finished with 1 tool error');

  await page.getByTestId('timeline-step').nth(1).click();
  const view = page.getByTestId('request-view');
  await expect(view.getByTestId('request-params')).toContainText('temperature');
  await expect(view.getByTestId('request-params')).toContainText('max_tokens');
  await expect(view.getByTestId('request-params')).toContainText('tool_choice');
  await expect(view.getByTestId('token-figure')).toContainText("the provider's count");
  await view.locator('.request-tools > summary').click();
  const bash = view.locator('[data-testid="request-tool"][data-tool="bash"]');
  await bash.locator('summary').click();
  await expect(bash).toContainText('"command"');

  // A memory message opens in place, with the whole text.
  const task0 = page.getByTestId('context-message').first();
  await task0.locator('summary').click();
  await expect(task0.locator('.context-message-body')).toContainText(task);
  await page.screenshot({ path: testInfo.outputPath('request-tools-params.png') });

  // The raw body is what the model server received for this step.
  await view.locator('[data-testid="request-tab"][data-tab="raw"]').click();
  const raw = JSON.parse(await view.getByTestId('request-raw').locator('pre').innerText()) as {
    messages: unknown[];
  };
  const received = requestsForTask(await scriptedRequests(), task);
  expect(received).toHaveLength(2);
  const {
    stream: _s,
    stream_options: _o,
    ...sent
  } = (received[1] as unknown as { body: Record<string, unknown> }).body;
  expect(raw).toEqual(sent);

  await view.locator('.request-tools > summary').click(); // fold the tools again
  await view.locator('[data-testid="request-tab"][data-tab="diff"]').click();
  const diff = view.getByTestId('request-diff');
  await expect(diff).toHaveAttribute('data-previous-step', '1');
  await expect(diff.locator('.diff-added').first()).toContainText('ls /no/such/folder');
  await diff.locator('.diff-added').first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('request-diff.png') });

  // ... and the step's response, as received
  await view.locator('[data-testid="request-tab"][data-tab="response"]').click();
  await expect(view.getByTestId('request-response')).toContainText('"finish_reason"');
  await expect(view.getByTestId('request-response')).toContainText('terminate');
});

test("item 4: a long command's output appears while it runs", async ({ page }, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await openWorkbench(page);
  await startRun(page, `Please print slowly ${Date.now()}`);
  const card = page.locator('[data-testid="tool-call"][data-tool="bash"]');
  const live = card.getByTestId('live-output');
  await expect(live).toContainText('tick 2', { timeout: 60_000 });
  // still running: the end has not been printed yet
  await expect(card).toHaveAttribute('data-status', 'running');
  await expect(live).not.toContainText('tick 8');
  await card.click();
  const panel = page.getByTestId('inspector').getByTestId('live-output');
  await expect(panel).toHaveAttribute('data-running', 'true');
  await expect(panel).toContainText('tick 3');
  await page.screenshot({ path: testInfo.outputPath('live-output-running.png') });

  await waitForOutcome(page);
  await expect(card).toHaveAttribute('data-status', 'ok');
  await expect(panel).toHaveAttribute('data-running', 'false');
  await expect(panel).toContainText('tick 8');
  await page.screenshot({ path: testInfo.outputPath('live-output-done.png') });
});
