/**
 * Issue 28 item 4, "Done when": a recorded request re-sent from the playground with one
 * edited message and 3 samples; the raw request the model server received equals the
 * editor's content, and the original run is unchanged (its history file byte for byte).
 * Through `workbench serve` against the scripted OpenAI-compatible server.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { openWorkbench, scriptedRequests, startRun, waitForOutcome } from './support/workbench';

const unavailable = browserUnavailableReason();

test('a recorded request re-sent with one edited message and 3 samples; the run is unchanged', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  const task = `say hello from the playground ${Date.now()}`;
  await openWorkbench(page);
  await startRun(page, task);
  await waitForOutcome(page, 'finished');
  const runId = decodeURIComponent(/#\/run\/([^/]+)/.exec(page.url())?.[1] ?? '');
  expect(runId).not.toBe('');
  const historyFile = join(process.env['WORKBENCH_E2E_HOME'] ?? '', 'runs', `${runId}.jsonl`);
  const before = readFileSync(historyFile);

  await page.getByTestId('timeline-step').first().click();
  const open = page.getByTestId('request-view').getByTestId('playground-open');
  const seq = await open.getAttribute('data-seq');
  await open.click();
  await expect(page).toHaveURL(new RegExp(`#/playground/${runId}/${seq}$`));
  const playground = page.getByTestId('playground-page');
  await expect(playground).toBeVisible();

  // one message edited: the task
  const texts = playground.getByTestId('playground-message-text');
  await expect(texts.nth(1)).toHaveValue(task);
  const edited = `${task} (edited in the playground)`;
  await texts.nth(1).fill(edited);
  await playground.getByTestId('playground-samples').fill('3');
  await playground.locator('[data-testid="playground-tab"][data-tab="raw"]').click();
  const editor = JSON.parse(await playground.getByTestId('playground-raw').inputValue()) as {
    messages: { role: string; content: unknown }[];
  };
  expect(editor.messages[1]).toEqual({ role: 'user', content: edited });

  await playground.getByTestId('playground-send').click();
  const samples = playground.getByTestId('playground-sample');
  await expect(samples).toHaveCount(3);
  for (let i = 0; i < 3; i++) await expect(samples.nth(i)).toHaveAttribute('data-state', 'done');
  await expect(samples.first().getByTestId('playground-sample-text')).toContainText('Hello from');
  await expect(playground.getByTestId('playground-recorded')).toContainText('Hello from');
  await expect(playground.getByTestId('playground-variance')).toContainText('in 3 samples');
  await page.screenshot({ path: testInfo.outputPath('playground.png'), fullPage: true });

  // the server received 3 requests, each exactly the editor's body
  const received = (await scriptedRequests()).filter((r) =>
    r.messages.some((m) => m.role === 'user' && m.content === edited),
  ) as unknown as { body: Record<string, unknown> }[];
  expect(received).toHaveLength(3);
  for (const request of received) {
    const { stream, stream_options: _o, ...sent } = request.body;
    expect(stream).toBe(true);
    expect(sent).toEqual(editor);
  }

  // nothing of it reached the run
  expect(readFileSync(historyFile).equals(before)).toBe(true);
  await page.goto(page.url().replace(/#.*$/, `#/run/${runId}`));
  await expect(page.getByTestId('run-outcome')).toHaveText('finished');
});
