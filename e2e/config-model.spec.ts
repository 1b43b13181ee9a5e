import { readFileSync } from 'node:fs';
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
const configText = () =>
  readFileSync(join(process.env['WORKBENCH_E2E_HOME'] ?? '', 'config.toml'), 'utf8');

test('a model changed for one agent is what its next run calls; another agent keeps its own', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await openWorkbench(page);
  await page.getByTestId('nav-config').click();
  await expect(page.getByTestId('config-editor')).toBeVisible();
  await page.getByTestId('config-tab-toolcall').click();
  const model = page.getByTestId('config-field-toolcall-model');
  await expect(model).toHaveValue(DEFAULT_MODEL);
  await expect(model).toHaveAttribute('data-source', 'inherited');

  // inline validation before anything is sent
  await page.getByTestId('config-field-toolcall-temperature').fill('7');
  await expect(page.getByTestId('config-error-toolcall-temperature')).toContainText('at most 2');
  await page.getByTestId('config-field-toolcall-temperature').fill('0.2');
  await expect(page.getByTestId('config-error-toolcall-temperature')).toHaveCount(0);

  // max_concurrency: empty is no cap; checked like the schema (1 to 1000)
  const cap = page.getByTestId('config-field-toolcall-max_concurrency');
  await expect(cap).toHaveValue('');
  await expect(cap).toHaveAttribute('placeholder', 'no cap');
  await cap.fill('0');
  await expect(page.getByTestId('config-error-toolcall-max_concurrency')).toContainText(
    'at least 1',
  );
  await cap.fill('2');
  await expect(page.getByTestId('config-error-toolcall-max_concurrency')).toHaveCount(0);

  await model.fill(CHANGED);
  await page.getByTestId('config-save').click();
  await expect(page.getByTestId('config-save-status')).toContainText('Saved');
  await expect(cap).toHaveValue('2');
  await expect(cap).toHaveAttribute('data-source', 'overridden');
  // saved to the profile's own section, the file's comment kept
  expect(configText()).toMatch(/\[llm\.toolcall\][^[]*\nmax_concurrency = 2\n/);
  expect(configText()).toContain('# Written by playwright.config.ts');
  await expect(model).toHaveValue(CHANGED);
  await expect(model).toHaveAttribute('data-source', 'overridden');
  await expect(page.getByTestId('config-field-manus-model')).toHaveCount(0);
  await page.getByTestId('config-tab-manus').click();
  await expect(page.getByTestId('config-field-manus-model')).toHaveValue(DEFAULT_MODEL);
  await page.getByTestId('config-tab-toolcall').click();
  await page.screenshot({ path: testInfo.outputPath('config-saved.png'), fullPage: true });

  const toolcallTask = `Which model are you? (toolcall ${Date.now()})`;
  await startRun(page, toolcallTask, 'toolcall');
  await waitForOutcome(page);
  await expect(page.getByTestId('run-model')).toHaveText(CHANGED);
  await expect(
    page.locator('[data-testid="timeline-message"][data-role="assistant"]'),
  ).toContainText(`I am answering as ${CHANGED}`);

  const manusTask = `Which model are you? (manus ${Date.now()})`;
  await startRun(page, manusTask, 'manus');
  await waitForOutcome(page);
  await expect(page.getByTestId('run-model')).toHaveText(DEFAULT_MODEL);
  await page.screenshot({ path: testInfo.outputPath('manus-run.png') });

  // What the model server actually received.
  const requests = await scriptedRequests();
  expect(requestsForTask(requests, toolcallTask).map((r) => r.model)).toEqual([CHANGED]);
  expect(requestsForTask(requests, manusTask).map((r) => r.model)).toEqual([DEFAULT_MODEL]);

  // Reset to inherited puts the default back (and leaves the config as the other specs expect).
  await page.getByTestId('nav-config').click();
  await page.getByTestId('config-tab-toolcall').click();
  await page.getByTestId('config-reset-toolcall-model').click();
  await page.getByTestId('config-reset-toolcall-temperature').click();
  await page.getByTestId('config-field-toolcall-max_concurrency').fill('');
  await page.getByTestId('config-save').click();
  await expect(page.getByTestId('config-field-toolcall-model')).toHaveValue(DEFAULT_MODEL);
  await expect(page.getByTestId('config-field-toolcall-max_concurrency')).toHaveValue('');
  expect(configText()).not.toContain('max_concurrency');
  await expect(page.getByTestId('config-field-toolcall-model')).toHaveAttribute(
    'data-source',
    'inherited',
  );
});
