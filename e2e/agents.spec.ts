/**
 * Issue 28 item 2, the Agents page: an agent made in the GUI from nothing (its prompt, two
 * tools, a profile) runs against the scripted model server, which receives exactly that
 * system prompt and those tools; Manus duplicated with another system prompt runs beside
 * Manus on the same task, and the compare view names the prompt change and the first
 * step where the runs part. Screenshots of the page and the editor.
 */
import { expect, test, type Page } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import {
  openWorkbench,
  requestsForTask,
  scriptedRequests,
  waitForOutcome,
} from './support/workbench';

const unavailable = browserUnavailableReason();
// (not gpt-e2e-fast: profiles.spec.ts checks that config.toml says "fast" nowhere after it)
const PROFILE_MODEL = 'gpt-e2e-changed';

interface RecordedBody {
  model: string;
  messages: { role: string; content?: unknown }[];
  tools?: { function: { name: string } }[];
}

async function makeProfile(page: Page, name: string): Promise<void> {
  await page.getByTestId('nav-config').click();
  await page.getByTestId('settings-tab-profiles').click();
  await page.getByTestId('profile-name-input').fill(name);
  await page.getByTestId('profile-name-save').click();
  await page.getByTestId(`config-field-profile:${name}-model`).fill(PROFILE_MODEL);
  await page.getByTestId('config-save').click();
  await expect(page.getByTestId('config-save-status')).toContainText('Saved');
}

async function newAgent(page: Page, name: string, from?: string): Promise<void> {
  await page.getByTestId('nav-agents').click();
  if (from === undefined) await page.getByTestId('agent-new').click();
  else
    await page
      .locator(`[data-testid="agent-row"][data-agent="${from}"]`)
      .getByRole('button', { name: 'duplicate' })
      .click();
  await page.getByTestId('agent-name-input').fill(name);
  await page.getByTestId('agent-name-submit').click();
  await expect(page.getByTestId('agent-editor')).toHaveAttribute('data-agent', name);
}

test('an agent made in the editor runs with the prompt, tools and profile entered', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  test.setTimeout(180_000);
  const stamp = Date.now();
  const profile = `agents${stamp % 1_000_000}`;
  const name = `made-in-gui-${stamp}`;
  await openWorkbench(page);
  await makeProfile(page, profile);

  await page.getByTestId('nav-agents').click();
  await expect(page.locator('[data-testid="agent-row"][data-agent="manus"]')).toHaveAttribute(
    'data-source',
    'builtin',
  );
  await page.screenshot({ path: testInfo.outputPath('agents-page.png'), fullPage: true });
  await newAgent(page, name);
  await expect(page).toHaveURL(new RegExp(`#/agents/${name}$`));

  // the prompt: a misspelt variable is shown as one, and refused before any save
  const system = page.getByTestId('agent-system-prompt-input');
  await system.fill(`You are {{agent_name}}, made in the GUI (${stamp}). Work in {{workdir}}.`);
  const prompt = page.getByTestId('agent-system-prompt');
  await expect(prompt.locator('[data-known="false"]')).toHaveText('{{workdir}}');
  await expect(prompt.getByRole('alert')).toContainText('unknown template variable {{workdir}}');
  const text = `You are {{agent_name}}, made in the GUI (${stamp}). Work in {{work_dir}}.`;
  await system.fill(text);
  await expect(prompt.locator('[data-known="true"]')).toHaveCount(2);
  await expect(prompt.getByRole('alert')).toHaveCount(0);
  await expect(page.getByTestId('agent-system-prompt-tokens')).toHaveText(/^\d+ tokens$/);
  await page.getByTestId('agent-next-step-prompt-input').fill('');

  // two tools: bash and terminate (the starter's editor tool is taken off)
  const tool = (pattern: string) =>
    page.locator(`[data-testid="agent-tool"][data-tool="${pattern}"]`);
  await tool('str_replace_editor').getByTestId('agent-tool-pick').uncheck();
  await expect(tool('bash').getByTestId('agent-tool-pick')).toBeChecked();
  await expect(tool('terminate').getByTestId('agent-tool-pick')).toBeChecked();
  await tool('bash').getByRole('button', { name: 'details' }).click();
  await expect(tool('bash').getByTestId('agent-tool-details')).toContainText('"command"');
  await page.getByTestId('agent-profile-select').selectOption(profile);

  await page.getByTestId('agent-save').click();
  await expect(page.getByTestId('agent-notice')).toHaveText('Saved as version 2');
  await page.screenshot({ path: testInfo.outputPath('agent-editor.png'), fullPage: true });

  // Run opens New Run with the agent chosen
  await page.getByTestId('agent-run').click();
  await expect(page.getByTestId('agent-select')).toHaveValue(`agent:${name}`);
  const task = `say hello from the agent editor ${stamp}`;
  await page.getByTestId('task-input').fill(task);
  await page.getByTestId('run-start').click();
  await waitForOutcome(page, 'finished');

  const received = requestsForTask(await scriptedRequests(), task);
  expect(received.length).toBeGreaterThan(0);
  const body = (received[0] as unknown as { body: RecordedBody }).body;
  expect(body.model).toBe(PROFILE_MODEL);
  expect(body.messages[0]).toEqual({
    role: 'system',
    content: `You are ${name}, made in the GUI (${stamp}). Work in /workspace.`,
  });
  expect(body.tools?.map((t) => t.function.name)).toEqual(['bash', 'terminate']);
});

test('Manus duplicated with another system prompt: compare names the prompt change and the first divergent step', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  test.setTimeout(180_000);
  const stamp = Date.now();
  const name = `manus-two-steps-${stamp}`;
  const task = `compare my agent's prompt ${stamp}`;
  await openWorkbench(page);
  await newAgent(page, name, 'manus');
  // a duplicate of a built-in agent is editable, and starts as Manus's text
  const system = page.getByTestId('agent-system-prompt-input');
  const manusPrompt = await system.inputValue();
  expect(manusPrompt).toContain('Manus');
  await system.fill(`${manusPrompt}\nAnswer in exactly two steps.`);
  await page.getByTestId('agent-save').click();
  await expect(page.getByTestId('agent-notice')).toHaveText('Saved as version 2');

  const runIdOf = () => /#\/run\/([^/]+)/.exec(page.url())?.[1] ?? '';
  await page.getByTestId('agent-run').click();
  await page.getByTestId('task-input').fill(task);
  await page.getByTestId('run-start').click();
  await expect(page.getByTestId('run-outcome')).toBeVisible({ timeout: 60_000 });
  const b = runIdOf();
  await page.getByTestId('new-run').click();
  await page.getByTestId('task-input').fill(task);
  await page.getByTestId('agent-select').selectOption('manus');
  await page.getByTestId('run-start').click();
  await waitForOutcome(page, 'finished');
  const a = runIdOf();
  expect(a).not.toBe(b);

  await page.goto(page.url().replace(/#.*$/, `#/compare/${a},${b}`));
  await expect(page.getByTestId('compare-view')).toHaveAttribute('data-state', 'ready');
  const definition = page.getByTestId('compare-agent-definition');
  await expect(definition).toContainText(`manus v1`);
  await expect(definition).toContainText(`${name} v2`);
  const prompt = definition.locator('[data-field="definition.system_prompt"]');
  await expect(prompt.locator('.side-b ins')).toContainText('Answer in exactly two steps.');
  await expect(definition.locator('[data-field="definition.tools"]')).toHaveCount(0);
  // the runs part where their contexts do (the system prompt, in the task's row), and the
  // first step differs: the reply the other prompt got
  await expect(page.getByTestId('compare-status')).toContainText('first at the task');
  await expect(
    page.locator('[data-testid="compare-row"][data-first-divergence="true"]'),
  ).toContainText('the task');
  const step1 = page.locator('[data-testid="compare-row"][data-step-a="1"]');
  await expect(step1.filter({ hasText: 'step 1' })).toHaveAttribute('data-status', 'changed');
  await page.screenshot({ path: testInfo.outputPath('compare-agent-definition.png') });
});
