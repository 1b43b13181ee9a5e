/**
 * Time travel in the UI (issue 14): a Manus run writes a file in each of two steps; from
 * step 2 the user forks with an added message and another model profile, watches the
 * fork run to its end on that model, sees where the branch starts, and finds the fork
 * nested under its parent in the history. The model server saw the added message in the
 * fork's first request, after the parent's step-2 context.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
const FORK_MODEL = 'gpt-4o-e2e-fork';

test('fork from a step with an edited message and another model; nested under its parent; run again', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  const home = process.env['WORKBENCH_E2E_HOME'];
  if (!home) throw new Error('WORKBENCH_E2E_HOME is not set (playwright.config.ts sets it)');
  const configFile = join(home, 'config.toml');
  const original = readFileSync(configFile, 'utf8');
  // A second profile for the fork (the config is read at each run start; the UI is told).
  appendFileSync(configFile, `\n[llm.forkmodel]\nmodel = "${FORK_MODEL}"\n`);
  try {
    await openWorkbench(page);
    const task = `Please fork me at step two (${Date.now()})`;
    await startRun(page, task);
    await waitForOutcome(page);
    const parentId = await page
      .getByTestId('run-history-item')
      .filter({ hasText: task })
      .first()
      .getAttribute('data-run-id');
    expect(parentId).toBeTruthy();

    // Step 2, then "Fork from here" with a message and the other profile.
    await page.locator('[data-testid="timeline-step"][data-step="2"]').click();
    const panel = page.getByTestId('fork-panel');
    await expect(panel).toBeVisible();
    await panel
      .getByTestId('fork-message')
      .fill('Skip the third file and say which model you are.');
    await panel.getByTestId('fork-model').selectOption('forkmodel');
    await panel.getByTestId('fork-submit').click();

    // The fork opens live, runs on the other model and finishes.
    await expect(page.getByTestId('fork-origin')).toHaveAttribute('data-step', '2');
    await expect(page.getByTestId('run-model')).toHaveText(FORK_MODEL);
    await waitForOutcome(page);
    await expect(page.getByTestId('branch-start')).toBeVisible();

    // In the history: right under its parent, one level deeper.
    const fork = page.locator(`[data-testid="run-history-item"][data-fork-of="${parentId}"]`);
    await expect(fork).toHaveCount(1);
    await expect(page.locator('li.history-row[data-depth="1"]').filter({ has: fork })).toHaveCount(
      1,
    );
    const order = await page
      .getByTestId('run-history-item')
      .evaluateAll((items) => items.map((i) => i.getAttribute('data-run-id')));
    const forkId = await fork.getAttribute('data-run-id');
    expect(order.indexOf(forkId)).toBe(order.indexOf(parentId) + 1);

    // The model: the fork's first request is the parent's step-2 context plus the message.
    const requests = requestsForTask(await scriptedRequests(), task);
    const forkFirst = requests.find((r) => r.model === FORK_MODEL);
    expect(forkFirst).toBeDefined();
    const parentThird = requests.filter((r) => r.model !== FORK_MODEL)[2];
    const texts = (r: { messages: { role: string; content?: unknown }[] }) =>
      r.messages.map((m) => `${m.role}: ${String(m.content ?? '')}`);
    if (parentThird) {
      expect(texts(forkFirst!)).toContain('user: Skip the third file and say which model you are.');
    }
    expect(texts(forkFirst!).filter((t) => t.startsWith('tool:'))).toHaveLength(2);
    await page.screenshot({ path: testInfo.outputPath('fork.png') });

    // "Run again" on the parent: the whole task from step 0, listed right after it.
    await page.locator(`[data-testid="run-history-item"][data-run-id="${parentId}"]`).click();
    await page.getByTestId('run-again').click();
    await expect(page.getByTestId('run-history-item')).toHaveCount(order.length + 1);
    await expect(
      page.locator('[data-testid="run-history-item"][data-status="running"]'),
    ).toHaveCount(0);
    const again = await page
      .getByTestId('run-history-item')
      .evaluateAll((items) => items.map((i) => i.getAttribute('data-run-id')));
    const rerunId = again.find((id) => id !== null && !order.includes(id));
    expect(rerunId).toBeTruthy();
    // parent, its fork, then the re-run (a sibling of the parent)
    expect(again.indexOf(rerunId!)).toBe(again.indexOf(parentId) + 2);
  } finally {
    writeFileSync(configFile, original);
  }
});
