/**
 * Issue 11, item 8: Settings covers every section a run uses. [sandbox] with the images
 * this machine has, [browser], and [mcp.servers.NAME]: an MCP server added in Settings
 * lists its tools, and the next mcp run uses it. Saves keep the file's comments.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { testServerArgs } from '../src-main/runtime/tools/mcp/testing/test-mcp-process';
import { browserUnavailableReason } from './support/chromium';
import { openWorkbench, waitForOutcome } from './support/workbench';

const unavailable = browserUnavailableReason();
const configFile = () => join(process.env['WORKBENCH_E2E_HOME'] ?? '', 'config.toml');

test('item 8: [sandbox] and [browser] are edited in Settings, with provenance and the local images', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await openWorkbench(page);
  await page.getByTestId('nav-config').click();
  await page.getByTestId('settings-tab-sandbox').click();
  const image = page.getByTestId('settings-field-sandbox-image');
  await expect(image).toHaveValue('agent-workbench/sandbox:local');
  await expect(image).toHaveAttribute('data-source', 'file');
  await expect(page.getByTestId('settings-field-sandbox-memory_limit')).toHaveAttribute(
    'data-source',
    'default',
  );
  // the images Docker has are offered; a missing one is said before any run
  await expect(
    page.locator('[data-testid="sandbox-image-option"][data-tag="agent-workbench/sandbox:local"]'),
  ).toBeVisible();
  await image.fill('agent-workbench/sandbox:missing');
  await expect(page.getByTestId('sandbox-image-missing')).toBeVisible();
  await page
    .locator('[data-testid="sandbox-image-option"][data-tag="agent-workbench/sandbox:local"]')
    .click();
  await expect(image).toHaveValue('agent-workbench/sandbox:local');
  await page.getByTestId('settings-field-sandbox-memory_limit').fill('lots');
  await expect(page.getByRole('alert').filter({ hasText: 'must look like 512m' })).toBeVisible();
  await page.getByTestId('settings-field-sandbox-memory_limit').fill('768m');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-status')).toHaveText(
    'Saved. The next run uses these settings.',
  );
  await expect(page.getByTestId('settings-field-sandbox-memory_limit')).toHaveAttribute(
    'data-source',
    'file',
  );
  const text = readFileSync(configFile(), 'utf8');
  expect(text).toContain('memory_limit = "768m"');
  expect(text).toContain('# Written by playwright.config.ts');
  await page.screenshot({ path: testInfo.outputPath('settings-sandbox.png'), fullPage: true });
  // back to the default
  await page.getByTestId('settings-reset-sandbox-memory_limit').click();
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-field-sandbox-memory_limit')).toHaveAttribute(
    'data-source',
    'default',
  );

  await page.getByTestId('settings-tab-browser').click();
  await page.getByTestId('settings-field-browser-keep_screenshots').fill('2');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-field-browser-keep_screenshots')).toHaveAttribute(
    'data-source',
    'file',
  );
  expect(readFileSync(configFile(), 'utf8')).toMatch(/\[browser\]\s*\nkeep_screenshots = 2/);
  await page.screenshot({ path: testInfo.outputPath('settings-browser.png') });
  await page.getByTestId('settings-reset-browser-keep_screenshots').click();
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-field-browser-keep_screenshots')).toHaveAttribute(
    'data-source',
    'default',
  );
});

test('item 8: an MCP server added in Settings lists its tools, and the next mcp run uses it', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await openWorkbench(page);
  // before: the mcp agent is refused, with the way to the setting
  await page.getByTestId('new-run').click();
  await page.getByTestId('agent-select').selectOption('mcp');
  const mcpCheck = page.locator('[data-testid="preflight-check"][data-check="mcp"]');
  await expect(mcpCheck).toHaveAttribute('data-status', 'error');
  await expect(page.getByTestId('run-start')).toBeDisabled();
  await mcpCheck.getByRole('button', { name: 'Open MCP settings' }).click();

  await expect(page.getByTestId('mcp-empty')).toBeVisible();
  await page.getByTestId('mcp-field-name').fill('calc');
  await page.getByTestId('mcp-field-command').fill(process.execPath);
  await page.getByTestId('mcp-field-args').fill(testServerArgs('stdio').join('\n'));
  await page.getByTestId('mcp-test').click();
  const result = page.getByTestId('mcp-test-result');
  await expect(result).toHaveAttribute('data-ok', 'true', { timeout: 30_000 });
  await expect(result.locator('[data-tool="add"]')).toContainText('Adds two numbers');
  await page.screenshot({ path: testInfo.outputPath('settings-mcp-test.png') });
  await page.getByTestId('mcp-save').click();
  await expect(page.locator('[data-testid="mcp-server"][data-name="calc"]')).toBeVisible();
  expect(readFileSync(configFile(), 'utf8')).toContain('[mcp.servers.calc]');

  // the next mcp run uses it
  await page.getByTestId('new-run').click();
  await page.getByTestId('agent-select').selectOption('mcp');
  await expect(mcpCheck).toHaveAttribute('data-status', 'ok');
  await page.getByTestId('task-input').fill('Please add with the mcp server');
  await page.getByTestId('run-start').click();
  await waitForOutcome(page);
  const call = page.locator('[data-testid="tool-call"][data-tool="mcp_calc_add"]');
  await expect(call).toHaveAttribute('data-status', 'ok');
  await expect(call).toContainText('5');
  await page.screenshot({ path: testInfo.outputPath('mcp-run.png') });

  // removed again (the shared server's config stays as the other specs expect it)
  await page.getByTestId('nav-config').click();
  await page.getByTestId('settings-tab-mcp').click();
  await page
    .locator('[data-testid="mcp-server"][data-name="calc"]')
    .getByTestId('mcp-remove')
    .click();
  await expect(page.getByTestId('mcp-empty')).toBeVisible();
});
