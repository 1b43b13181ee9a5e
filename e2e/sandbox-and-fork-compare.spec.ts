/**
 * Issue 25 item 11, as a new user met it: the sandbox's "creating" and "ready" rows came
 * after the first tool's result; compare named a renamed run by its task; and a fork
 * compared with its parent read "−883 tokens" because the fork never ran the steps it
 * inherited. One Manus run in a folder of its own (so its sandbox is made during its first
 * call), renamed, then forked at step 1 and compared with its parent (figures and workspaces).
 */
import { chownSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { openWorkbench, waitForOutcome } from './support/workbench';

const unavailable = browserUnavailableReason();

/** A folder of its own: a new session, so a new sandbox made by the run's first call. */
function freshFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'workbench-e2e-sandbox-'));
  if (process.getuid?.() === 0) chownSync(dir, 1000, 1000);
  return dir;
}

test('the sandbox shows in the card of the call that waited for it; compare names the renamed parent and measures its fork after the fork step', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  test.setTimeout(180_000);
  await openWorkbench(page);
  const task = `Please fork me at step two (sandbox and compare ${Date.now()})`;
  await page.getByTestId('new-run').click();
  await page.getByTestId('task-input').fill(task);
  await page.getByTestId('agent-select').selectOption('manus');
  await page.getByTestId('workspace-input').fill(freshFolder());
  await expect(
    page.locator('[data-testid="preflight-check"][data-check="workspace"]'),
  ).toHaveAttribute('data-status', 'ok');
  await page.getByTestId('run-start').click();
  await expect(page.getByTestId('run-model')).toBeVisible();
  await waitForOutcome(page, 'finished', 120_000);

  // 1. The sandbox made for the first call is in that call's card, above its result, and
  //    no sandbox row follows the card.
  const firstCall = page.getByTestId('tool-call').first();
  const note = firstCall.getByTestId('tool-sandbox');
  await expect(note).toHaveAttribute('data-sandbox-status', 'ready');
  await expect(note).toContainText('Sandbox ready (');
  // the first section under the card's head: before the output and the result
  await expect(firstCall.locator('.tool-section').first()).toHaveAttribute(
    'data-testid',
    'tool-sandbox',
  );
  await expect(page.locator('[data-testid="timeline-marker"][data-marker="sandbox"]')).toHaveCount(
    0,
  );
  await firstCall.screenshot({ path: testInfo.outputPath('sandbox-in-first-card.png') });
  await page.screenshot({ path: testInfo.outputPath('sandbox-timeline.png') });

  // 2. Rename the parent, fork it at step 1 and compare the fork with its parent.
  const parentId = /#\/run\/([^/]+)/.exec(page.url())?.[1];
  expect(parentId).toBeTruthy();
  await page.getByTestId('history-rename').click();
  await page.getByTestId('history-rename-input').fill('Baseline: two files');
  await page.getByTestId('history-rename-input').press('Enter');
  await page.locator('[data-testid="timeline-step"][data-step="1"]').click();
  const panel = page.getByTestId('fork-panel');
  await expect(panel).toBeVisible();
  await panel.getByTestId('fork-message').fill('Write the second file, then stop.');
  await panel.getByTestId('fork-submit').click();
  await expect(page.getByTestId('fork-origin')).toHaveAttribute('data-step', '1');
  await waitForOutcome(page, 'finished', 120_000);
  await page.getByTestId('compare-with-parent').click();
  await expect(page.getByTestId('compare-view')).toHaveAttribute('data-state', 'ready');

  // the parent by its title, its task beneath; the fork (never renamed) by its task
  const runA = page.locator('[data-testid="compare-run"][data-side="A"]');
  await expect(runA).toHaveAttribute('data-run-id', parentId!);
  await expect(runA.locator('.cmp-run-task')).toHaveText('Baseline: two files');
  await expect(runA.getByTestId('compare-run-task')).toHaveText(`task: ${task}`);
  const runB = page.locator('[data-testid="compare-run"][data-side="B"]');
  await expect(runB.locator('.cmp-run-task')).toHaveText(task);

  // the figures compare the two runs after step 1: two steps each (a bash call and
  // terminate), and step 1 is one shared row, run by the parent
  const summary = page.getByTestId('compare-summary');
  await expect(summary).toHaveAttribute('data-fork-step', '1');
  await expect(page.getByTestId('compare-fork-note')).toContainText(
    'B is a fork of A at step 1: the figures compare what each run did after step 1',
  );
  const cells = (figure: string) => summary.locator(`tr[data-figure="${figure}"] td`);
  await expect(cells('steps')).toHaveText(['2', '2', '±0']);
  await expect(cells('tool errors')).toHaveText(['0', '0', '±0']);
  await expect(cells('shared').first()).toContainText('1 step ·');
  await expect(cells('shared').first()).toContainText('run by the parent');
  await expect(cells('shared').nth(1)).toHaveText('inherited');
  // tokens: the fork's own calls against the parent's after step 1, not its whole run
  const tokens = await cells('tokens').allInnerTexts();
  const [a, b] = tokens.map((t) => Number(t.replace(/[^\d]/g, '')));
  expect(a).toBeGreaterThan(0);
  expect(b).toBeGreaterThan(0);
  await page.screenshot({ path: testInfo.outputPath('compare-fork-with-title.png') });

  // 3. Their workspaces (issue 32 item 5), read from the real checkpoints: both runs end
  //    with the files the scenario writes, so nothing differs at the end
  const workspaces = page.getByTestId('compare-workspaces');
  await expect(workspaces).toHaveAttribute('data-differs', 'false');
  await expect(page.getByTestId('compare-workspaces-end')).toContainText('The same at the end');
  // and at every step they align (as runs diff says): no first divergence to link to
  await expect(page.getByTestId('compare-workspaces-first')).toHaveText(
    'The same at every aligned step.',
  );
  await workspaces.screenshot({ path: testInfo.outputPath('compare-fork-workspaces.png') });
});
