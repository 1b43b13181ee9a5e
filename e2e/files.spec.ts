/**
 * Issue 32 "Done when", as an agent builder debugging a coding agent meets it: the SWE
 * demo (the built-in demo model, a real sandbox) writes a program with a typo in step 1,
 * fixes it with the file editor in step 2, and runs it. The Files panel shows the tree at
 * step 1 and at the last step, the diff of the step that fixed the bug (attributed to the
 * editor call), and a fork from step 1 has the parent's file at the fork step.
 */
import { expect, test, type Page } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { startPrivateServer, type PrivateServer } from './support/private-server';
import { waitForOutcome } from './support/workbench';

const unavailable = browserUnavailableReason();
let server: PrivateServer;

test.beforeAll(async () => {
  if (unavailable) return;
  // No [llm] key: the built-in demo model answers; the sandbox is the local image.
  server = await startPrivateServer({
    configToml: '[sandbox]\nimage = "agent-workbench/sandbox:local"\n',
  });
});
test.afterAll(async () => {
  await server?.stop();
});

async function filesAt(page: Page, step: number) {
  const panel = page.getByTestId('files-panel');
  await panel.getByTestId('files-step').fill(String(step));
  await expect(panel).toHaveAttribute('data-step', String(step));
  return panel;
}

async function openGreet(page: Page) {
  const panel = page.getByTestId('files-panel');
  await panel.locator('[data-testid="files-entry"][data-path="demo"] button').click();
  await panel.locator('[data-testid="files-entry"][data-path="demo/greet.py"] button').click();
  return panel.getByTestId('files-viewer');
}

test('the Files panel: the tree at step 1 and the last step, the fix as a diff, a fork equal to its parent', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  test.setTimeout(180_000);
  await page.goto(server.url);
  await expect(page.getByTestId('app')).toHaveAttribute('data-app-state', 'ready');
  await page.getByTestId('new-run').click();
  await page.getByTestId('task-input').fill('show me what you do');
  await page.getByTestId('agent-select').selectOption('swe');
  await page.getByTestId('run-start').click();
  await expect(page.getByTestId('run-model')).toBeVisible();
  // the demo's first run of the program fails (the typo): one tool error
  await waitForOutcome(page, 'finished with 1 tool error', 120_000);

  // step 1: the program as written, with its typo; added in that step
  await page.getByTestId('files-toggle').click();
  const panel = await filesAt(page, 1);
  await expect(panel).toHaveAttribute('data-as-of', '1');
  await expect(panel.locator('[data-testid="files-entry"][data-path="demo"]')).toBeVisible();
  let viewer = await openGreet(page);
  await expect(
    panel.locator('[data-testid="files-entry"][data-path="demo/greet.py"]'),
  ).toHaveAttribute('data-change', 'added');
  await expect(viewer).toHaveAttribute('data-kind', 'text');
  await expect(viewer).toContainText('"Hello " + nme');
  await page.screenshot({ path: testInfo.outputPath('files-step-1.png') });

  // the last step: the fixed program
  await filesAt(page, 4);
  viewer = await openGreet(page);
  await expect(viewer).toContainText('"Hello " + name');
  await expect(viewer).not.toContainText('+ nme');
  await page.screenshot({ path: testInfo.outputPath('files-last-step.png') });

  // the chip is on the steps that changed files only, with how many: step 1 wrote the
  // program, step 2 fixed it; finishing (step 4) changed nothing
  const stepRow = (step: number) =>
    page.locator(`[data-testid="timeline-step"][data-step="${step}"]`);
  const chipOf = (step: number) => stepRow(step).getByTestId('step-files-chip');
  await page.getByTestId('timeline').press('End');
  await expect(stepRow(4)).toBeVisible();
  await expect(chipOf(4)).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('files-no-chip-on-last-step.png') });
  await page.getByTestId('timeline').press('Home');
  await expect(chipOf(1)).toHaveText('1 file changed');
  await expect(chipOf(2)).toHaveAttribute('data-count', '1');
  await page.screenshot({ path: testInfo.outputPath('files-chips.png') });
  // the step that fixed the bug: its row's chip opens its diff, by the editor call
  await chipOf(2).click();
  const diff = page.getByTestId('step-diff');
  await expect(diff).toHaveAttribute('data-step', '2');
  const file = diff.locator('[data-testid="step-diff-file"][data-path="demo/greet.py"]');
  await expect(file).toHaveAttribute('data-change', 'changed');
  await expect(file.locator('.diff-del')).toContainText('return "Hello " + nme');
  await expect(file.locator('.diff-add')).toContainText('return "Hello " + name');
  await expect(file).toContainText('by str_replace_editor');
  await expect(diff.getByTestId('step-diff-file')).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath('files-fix-diff.png') });

  // a fork from step 1: its files where it starts are its parent's at step 1
  await page.locator('[data-testid="timeline-step"][data-step="1"]').click();
  const fork = page.getByTestId('fork-panel');
  await fork.getByTestId('fork-message').fill('Look again.');
  await fork.getByTestId('fork-submit').click();
  await expect(page.getByTestId('fork-origin')).toHaveAttribute('data-step', '1');
  await expect(page.getByTestId('run-outcome')).toHaveAttribute('data-state', 'FINISHED', {
    timeout: 120_000,
  });
  await page.getByTestId('files-toggle').click();
  const forkPanel = await filesAt(page, 1);
  await expect(forkPanel).toHaveAttribute('data-as-of', '0');
  viewer = await openGreet(page);
  await expect(viewer).toContainText('"Hello " + nme');
  await page.screenshot({ path: testInfo.outputPath('files-fork-at-step-1.png') });
});

test('the running step, live: the workspace now with a "live" label, a file as the agent left it', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  test.setTimeout(180_000);
  await page.goto(server.url);
  await expect(page.getByTestId('app')).toHaveAttribute('data-app-state', 'ready');
  await page.getByTestId('new-run').click();
  await page.getByTestId('task-input').fill('show me what you do, live');
  await page.getByTestId('agent-select').selectOption('swe');
  // paused before its first bash call: the step that wrote the program is still running
  await page.getByTestId('run-breakpoints-input').fill('tool:bash');
  await page.getByTestId('run-start').click();
  const bar = page.getByTestId('debugger-bar');
  await expect(bar).toHaveAttribute('data-state', 'paused', { timeout: 120_000 });

  await page.getByTestId('files-toggle').click();
  const panel = page.getByTestId('files-panel');
  await expect(panel).toHaveAttribute('data-live', 'true');
  const label = panel.getByTestId('files-live');
  await expect(label).toContainText('live');
  await expect(label).toContainText('listed at');
  // (the session's folder: an earlier run of this server's session may have left files)
  await expect(panel.locator('[data-testid="files-entry"][data-path="notes"]')).toHaveCount(0);
  // something writes into the workspace mid-step (here the terminal, in the container):
  // the live listing shows it without asking, and the file opens as it is now
  await page.getByTestId('terminal-toggle').click();
  const terminal = page.getByTestId('terminal-panel');
  await terminal
    .getByTestId('terminal-input')
    .fill('mkdir -p /workspace/notes && echo hello live > /workspace/notes/typed.txt');
  await terminal.getByTestId('terminal-run').click();
  const folder = panel.locator('[data-testid="files-entry"][data-path="notes"]');
  await expect(folder).toBeVisible({ timeout: 30_000 });
  await folder.locator('button').click();
  await panel.locator('[data-testid="files-entry"][data-path="notes/typed.txt"] button').click();
  const viewer = panel.getByTestId('files-viewer');
  await expect(viewer).toHaveAttribute('data-kind', 'text');
  await expect(viewer).toContainText('hello live');
  await page.screenshot({ path: testInfo.outputPath('files-live-running-step.png') });

  // run to the end: the panel goes back to the checkpoints
  for (let i = 0; i < 60 && (await page.getByTestId('run-outcome').count()) === 0; i++) {
    const state = await bar.getAttribute('data-state', { timeout: 1_000 }).catch(() => null);
    if (state === 'paused') await page.getByTestId('debug-resume').click();
    await page.waitForTimeout(1_000);
  }
  await expect(page.getByTestId('run-outcome')).toHaveAttribute('data-state', 'FINISHED', {
    timeout: 60_000,
  });
  await expect(panel.getByTestId('files-live')).toHaveCount(0);
  await expect(panel).not.toHaveAttribute('data-live', 'true');
});
