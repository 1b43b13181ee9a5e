/**
 * Issue 32 item 4 in the real UI (Chromium, `workbench serve`, the built-in demo model, the
 * real sandbox): the SWE demo paused at a breakpoint on bash; a command typed in the
 * Terminal panel runs in the session's container (its hostname is not this computer's; a
 * file it writes is not on this computer), the terminal is read-only while the agent runs
 * again, takes commands once the run finished, and what was typed is still listed after
 * a reload (the run's user-actions log).
 */
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { expect, test, type Page } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { startPrivateServer, type PrivateServer } from './support/private-server';

const unavailable = browserUnavailableReason();
let server: PrivateServer;

test.beforeAll(async () => {
  if (unavailable) return;
  server = await startPrivateServer({
    configToml: '[sandbox]\nimage = "agent-workbench/sandbox:local"\n',
  });
});
test.afterAll(async () => {
  await server?.stop();
});

const bar = (page: Page) => page.getByTestId('debugger-bar');
const terminal = (page: Page) => page.getByTestId('terminal-panel');

async function type(page: Page, command: string) {
  await terminal(page).getByTestId('terminal-input').fill(command);
  await terminal(page).getByTestId('terminal-run').click();
}

test('the terminal: typed while paused runs in the container, read-only while running, again after the run, kept', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  test.setTimeout(180_000);
  const marker = `/tmp/wb-e2e-terminal-${Date.now()}`;
  await page.goto(server.url);
  await expect(page.getByTestId('app')).toHaveAttribute('data-app-state', 'ready');
  await page.getByTestId('new-run').click();
  await page.getByTestId('task-input').fill('show me what you do');
  await page.getByTestId('agent-select').selectOption('swe');
  await page.getByTestId('run-breakpoints-input').fill('tool:bash');
  await page.getByTestId('run-start').click();
  await expect(bar(page)).toHaveAttribute('data-state', 'paused', { timeout: 120_000 });

  await page.getByTestId('terminal-toggle').click();
  await expect(terminal(page)).toHaveAttribute('data-enabled', 'true');
  await type(page, `hostname; pwd; echo typed > ${marker}`);
  const first = terminal(page).locator('[data-testid="terminal-entry"][data-seq="1"]');
  await expect(first).toHaveAttribute('data-exit-code', '0', { timeout: 30_000 });
  await expect(first).toContainText('/workspace');
  await expect(first).toContainText('while paused');
  await expect(first).not.toContainText(hostname());
  expect(existsSync(marker)).toBe(false);
  // in the timeline too, as the user's action (not a step), where the run paused
  const typedRow = page.locator('[data-testid="timeline-user-action"][data-seq="1"]');
  await expect(typedRow).toContainText('you · terminal');
  await expect(typedRow).toContainText(`echo typed > ${marker}`);
  await expect(typedRow).toHaveAttribute('data-run-state', 'paused');
  await page.screenshot({ path: testInfo.outputPath('terminal-paused.png') });

  // resumed: the agent runs, the terminal is read-only (it may pause again at the next bash)
  await page.getByTestId('debug-resume').click();
  for (let i = 0; i < 60 && (await page.getByTestId('run-outcome').count()) === 0; i++) {
    const state = await bar(page)
      .getAttribute('data-state', { timeout: 1_000 })
      .catch(() => null);
    if (state === 'paused') await page.getByTestId('debug-resume').click();
    await page.waitForTimeout(1_000);
  }
  await expect(page.getByTestId('run-outcome')).toHaveAttribute('data-state', 'FINISHED', {
    timeout: 60_000,
  });
  await expect(terminal(page)).toHaveAttribute('data-enabled', 'true');
  // the agent's work is there, as it left it
  await type(page, `cat ${marker}; ls demo`);
  const second = terminal(page).locator('[data-testid="terminal-entry"][data-seq="2"]');
  await expect(second).toContainText('typed', { timeout: 30_000 });
  await expect(second).toContainText('greet.py');
  await expect(second).toContainText('while finished');

  // kept with the run: listed again after a reload
  await page.reload();
  await expect(page.getByTestId('app')).toHaveAttribute('data-app-state', 'ready');
  await page.getByTestId('terminal-toggle').click();
  await expect(terminal(page).getByTestId('terminal-entry')).toHaveCount(2);
  // and in the timeline, each where it was typed
  await page.getByTestId('timeline').press('End');
  await expect(page.locator('[data-testid="timeline-user-action"][data-seq="2"]')).toContainText(
    `cat ${marker}`,
  );
  await page.screenshot({ path: testInfo.outputPath('terminal-finished.png') });
});
