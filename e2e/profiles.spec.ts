/**
 * Profiles as objects (issue 25 item 3, "Done when"): a new user creates a profile `fast`
 * in Settings, points it at its own model, assigns it to swe, picks it in New run and in
 * a batch, with no TOML written by hand; `workbench batch --profile fast` then works
 * against the same home. The model server's recorded requests prove which model each
 * run called. A reload with unsaved edits asks first (item 11). The spec deletes `fast`
 * at the end (swe is moved back to [llm]), so the shared home is as it found it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { API_KEY_VAR, DEFAULT_MODEL } from './support/server';
import {
  openWorkbench,
  requestsForTask,
  scriptedRequests,
  waitForOutcome,
} from './support/workbench';

const unavailable = browserUnavailableReason();
const FAST = 'gpt-e2e-fast';
const home = () => process.env['WORKBENCH_E2E_HOME'] ?? '';
const configText = () => readFileSync(join(home(), 'config.toml'), 'utf8');
const modelsOf = async (task: string) =>
  requestsForTask(await scriptedRequests(), task).map((r) => r.model);

test('a profile made in Settings is assigned, picked in New run and Batch, and used by the CLI', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  test.setTimeout(180_000);
  const shot = (name: string) =>
    page.screenshot({ path: testInfo.outputPath(name), fullPage: true });
  await openWorkbench(page);
  await page.getByTestId('nav-config').click();
  await page.getByTestId('settings-tab-profiles').click();

  // create: a bad name is refused as typed, then `fast` opens its own page
  const name = page.getByTestId('profile-name-input');
  await name.fill('fast profile');
  await expect(page.getByTestId('profile-name-error')).toContainText('letters, digits');
  await name.fill('fast');
  await page.getByTestId('profile-name-save').click();
  const model = page.getByTestId('config-field-profile:fast-model');
  await expect(model).toHaveValue(DEFAULT_MODEL);
  await expect(model).toHaveAttribute('data-source', 'inherited');

  // a reload with an unsaved edit asks first (the edit is still there after "stay")
  await model.fill(FAST);
  let asked = '';
  page.once('dialog', (dialog) => {
    asked = dialog.type();
    void dialog.dismiss();
  });
  await page.reload({ timeout: 3_000 }).catch(() => undefined);
  expect(asked).toBe('beforeunload');
  await expect(model).toHaveValue(FAST);

  await page.getByTestId('config-save').click();
  await expect(page.getByTestId('config-save-status')).toContainText('Saved');
  await expect(model).toHaveAttribute('data-source', 'overridden');
  expect(configText()).toMatch(/\[llm\.fast\]\s*\nmodel = "gpt-e2e-fast"/);

  // assign it to swe from the list; the card says who uses it and that its price is unknown
  await page.getByTestId('settings-tab-profiles').click();
  await page.getByTestId('profile-assign-swe').selectOption('fast');
  await expect(page.getByTestId('profile-used-by-fast')).toHaveText(
    'Used by: swe ([agent.swe] llm)',
  );
  await expect(page.getByTestId('profile-card-fast')).toContainText('price unknown');
  await page.getByTestId('profile-test-fast').click();
  await expect(page.getByTestId('profile-test-status-fast')).toContainText(FAST);
  expect(configText()).toMatch(/\[agent\.swe\]\s*\nllm = "fast"/);
  await shot('profiles-list.png');

  // New run: pick `fast` for a toolcall run (toolcall is not assigned to it)
  const stamp = Date.now();
  const runTask = `Which model are you? (profile ${stamp})`;
  await page.getByTestId('new-run').click();
  await page.getByTestId('task-input').fill(runTask);
  await page.getByTestId('agent-select').selectOption('toolcall');
  await page.getByTestId('run-profile').selectOption('fast');
  await expect(page.getByTestId('new-run-model')).toHaveText(`model: ${FAST}`);
  await shot('new-run-profile.png');
  await page.getByTestId('run-start').click();
  await waitForOutcome(page);
  await expect(page.getByTestId('run-model')).toHaveText(FAST);
  expect(await modelsOf(runTask)).toEqual([FAST]);

  // Batch: swe on `fast`, checked in the list
  const batchTask = `which model answers (profile batch ${stamp})`;
  await page.getByTestId('nav-batch').click();
  await page.getByTestId('batch-tasks').fill(batchTask);
  await page.getByTestId('batch-agent').selectOption('swe');
  await page.getByTestId('batch-profile-fast').check();
  await page.getByTestId('batch-repeat').fill('1');
  await page.getByTestId('batch-concurrency').fill('1');
  await shot('batch-profile.png');
  await page.getByTestId('batch-start').click();
  const cell = page.locator('[data-testid="batch-cell"] [data-testid="batch-run"]').first();
  await expect(cell).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  await expect(cell).toHaveAttribute('data-outcome', 'finished');
  expect(await modelsOf(batchTask)).toEqual([FAST]);

  // the CLI, on the same home: `--profile fast` is known now
  const dir = mkdtempSync(join(tmpdir(), 'wb-profiles-e2e-'));
  const cliTask = `which model answers (profile cli ${stamp})`;
  writeFileSync(join(dir, 'tasks.jsonl'), `${JSON.stringify({ task: cliTask })}\n`);
  const out = execFileSync(
    process.execPath,
    ['bin/workbench.js', 'batch', join(dir, 'tasks.jsonl'), '--agent', 'swe', '--profile', 'fast'],
    {
      env: { ...process.env, WORKBENCH_HOME: home(), [API_KEY_VAR]: 'sk-e2e-not-a-real-key' },
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  expect(out).toContain('fast');
  expect(await modelsOf(cliTask)).toEqual([FAST]);

  // delete: refused silently never; swe is moved back to [llm] and the file forgets `fast`
  await page.getByTestId('nav-config').click();
  await page.getByTestId('settings-tab-profiles').click();
  await page.getByTestId('profile-delete-fast').click();
  await expect(page.getByTestId('profile-card-fast')).toContainText(
    'swe uses this profile. They will use',
  );
  await shot('profile-delete.png');
  await page.getByTestId('profile-delete-confirm-fast').click();
  await expect(page.getByTestId('profile-card-fast')).toHaveCount(0);
  await expect(page.getByTestId('profile-assign-swe')).toHaveValue('');
  expect(configText()).not.toContain('fast');
});
