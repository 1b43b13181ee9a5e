/**
 * Issue 25 item 11, in the page: where this session's workspace folder is on disk (the
 * New run form and the run view name it, copyable); a renamed run exported and imported
 * elsewhere keeps its title; importing it a second time says it is already there.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { e2eConfigToml } from './support/server';
import { startPrivateServer, type PrivateServer } from './support/private-server';
import { openWorkbench, startRun, waitForOutcome } from './support/workbench';

const unavailable = browserUnavailableReason();
let other: PrivateServer | undefined;

test.afterEach(async () => {
  await other?.stop();
  other = undefined;
});

test("the session's workspace folder is named; a renamed run's export keeps its title and imports once", async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  const home = process.env['WORKBENCH_E2E_HOME']!;
  await openWorkbench(page);
  await page.getByTestId('new-run').click();
  const formPath = page.getByTestId('session-workspace').getByTestId('host-path');
  const folder = (await formPath.innerText()).trim();
  expect(folder).toMatch(new RegExp(`^${join(home, 'workspaces')}/s-[0-9a-f]{8}$`));
  await page.screenshot({ path: testInfo.outputPath('new-run-session-workspace.png') });

  await startRun(page, `say hello for the transfer check ${Date.now()}`);
  await waitForOutcome(page);
  await expect(page.getByTestId('run-workspace').getByTestId('host-path')).toHaveText(folder);
  await expect(page.getByTestId('run-workspace')).toContainText('mounted read-write at /workspace');

  await page.getByTestId('history-rename').click();
  await page.getByTestId('history-rename-input').fill('Transfer baseline');
  await page.getByTestId('history-rename-input').press('Enter');
  await expect(page.getByTestId('run-title')).toContainText('Transfer baseline');
  await page.screenshot({ path: testInfo.outputPath('run-view-workspace.png') });
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  const file = testInfo.outputPath((await download).suggestedFilename());
  await (await download).saveAs(file);

  // imported into another workbench: the title comes along
  other = await startPrivateServer({ configToml: e2eConfigToml() });
  await page.goto(other.url);
  await expect(page.getByTestId('app')).toHaveAttribute('data-app-state', 'ready');
  const importFile = () => page.locator('input[type="file"]').setInputFiles(file);
  await importFile();
  const row = page.getByTestId('run-history-item');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('history-title')).toHaveText('Transfer baseline');
  await expect(page.getByTestId('run-title')).toContainText('Transfer baseline');
  await expect(page.getByTestId('import-notes')).toHaveCount(0);
  // an imported run names no folder of this machine
  await expect(page.getByTestId('run-workspace')).toHaveCount(0);

  // the same file again: said, nothing imported
  await importFile();
  const notes = page.getByTestId('import-notes');
  await expect(notes).toContainText(
    'this run (“Transfer baseline”) is already in the history with the same events; nothing imported.',
  );
  await expect(row).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath('import-twice.png') });

  // a changed file under the same run id: refused, with what to do
  const changed = testInfo.outputPath('changed.jsonl');
  writeFileSync(changed, readFileSync(file, 'utf8').replace('say hello for', 'say goodbye for'));
  await page.locator('input[type="file"]').setInputFiles(changed);
  await expect(page.getByTestId('import-error')).toContainText(
    'is already in the history, with other events',
  );
  await expect(page.getByTestId('import-error')).toContainText('delete it first');
  await expect(row).toHaveCount(1);
});
