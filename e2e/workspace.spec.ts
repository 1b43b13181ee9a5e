/**
 * Issue 11, "a workspace the user chooses": a host folder typed in the new-run form is
 * mounted at /workspace; the agent's edits land in that folder, and the run view says
 * where the workspace is. "isolated copy" runs on a copy and leaves the folder alone.
 */
import { chownSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { openWorkbench, waitForOutcome } from './support/workbench';

const unavailable = browserUnavailableReason();
const BUGGY = 'def greet(name):\n    return "Hello " + nme\n\nprint(greet("workspace"))\n';

/** A project folder as a user has it: their own files (as root: a normal user's). */
function projectFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'workbench-e2e-project-'));
  writeFileSync(join(dir, 'greet.py'), BUGGY);
  if (process.getuid?.() === 0) {
    for (const path of [dir, join(dir, 'greet.py')]) chownSync(path, 1000, 1000);
  }
  return dir;
}

async function startOn(page: Page, dir: string, isIsolated: boolean): Promise<void> {
  await page.getByTestId('new-run').click();
  await page.getByTestId('task-input').fill('Please fix the greeting in the workspace');
  await page.getByTestId('agent-select').selectOption('swe');
  await page.getByTestId('workspace-input').fill(dir);
  if (isIsolated) await page.getByTestId('workspace-isolated').check();
  const check = page.locator('[data-testid="preflight-check"][data-check="workspace"]');
  await expect(check).toHaveAttribute('data-status', 'ok');
  await expect(check).toContainText(isIsolated ? 'is copied for this run' : 'mounted read-write');
  await page.getByTestId('run-start').click();
  await expect(page.getByTestId('run-model')).toBeVisible();
}

test('a run on a chosen workspace folder edits the files on the host, and says where it works', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  const dir = projectFolder();
  await openWorkbench(page);
  await startOn(page, dir, false);
  await expect(page.getByTestId('run-workspace')).toContainText(dir);
  await expect(page.getByTestId('run-workspace')).toContainText('mounted read-write at /workspace');
  await waitForOutcome(page);
  await expect(page.locator('[data-testid="tool-call"][data-tool="bash"]')).toContainText(
    'Hello workspace',
  );
  expect(readFileSync(join(dir, 'greet.py'), 'utf8')).toContain('"Hello " + name');
  await page.screenshot({ path: testInfo.outputPath('workspace-mounted.png') });

  // isolated: the run works on a copy; the folder keeps its content
  writeFileSync(join(dir, 'greet.py'), BUGGY);
  await startOn(page, dir, true);
  await expect(page.getByTestId('run-workspace')).toContainText('copied; the run works on');
  await waitForOutcome(page);
  expect(readFileSync(join(dir, 'greet.py'), 'utf8')).toBe(BUGGY);
  const copy = /works on (\S+)\)/.exec((await page.getByTestId('run-workspace').innerText()) ?? '');
  expect(copy).not.toBeNull();
  expect(readFileSync(join(copy![1]!, 'greet.py'), 'utf8')).toContain('"Hello " + name');
  await page.screenshot({ path: testInfo.outputPath('workspace-isolated.png') });
});
