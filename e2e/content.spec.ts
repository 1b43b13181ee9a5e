/**
 * Issue 17 item 3: a reply renders as markdown (raw HTML in it stays text, a javascript:
 * link is no link) and python_execute's code shows as highlighted code, not as a JSON
 * string with \n in it.
 */
import { expect, test } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { openWorkbench, startRun } from './support/workbench';

const unavailable = browserUnavailableReason();

test('markdown and a code argument rendered', async ({ page }, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await openWorkbench(page);
  await startRun(page, `Please render markdown and code ${Date.now()}`);
  await expect(page.getByTestId('run-outcome')).toBeVisible({ timeout: 60_000 });

  const timeline = page.getByTestId('timeline');
  const reply = timeline.locator('[data-role="assistant"] .markdown').first();
  await expect(reply.locator('h4')).toHaveText('Plan');
  await expect(reply.locator('strong')).toHaveText('count');
  await expect(reply.locator('li')).toHaveText(['list them', 'print how many there are']);
  const block = reply.locator('.code-block[data-language="python"]');
  await expect(block).toHaveAttribute('data-highlighted', 'true');
  await expect(block.locator('.hljs-string')).toHaveText("'.'");
  await expect(reply).toContainText('<img src=x onerror="alert(1)">');
  expect(await timeline.locator('.markdown img').count()).toBe(0);

  const last = timeline.locator('[data-role="assistant"] .markdown').last();
  await expect(last.locator('a')).toHaveCount(1);
  await expect(last.locator('a')).toHaveAttribute('href', 'https://example.com/docs');
  await expect(last.locator('a')).toHaveAttribute('target', '_blank');
  expect(await page.locator('a[href^="javascript" i]').count()).toBe(0);

  const card = timeline.locator('[data-testid="tool-call"][data-tool="python_execute"]');
  await expect(card.locator('.tool-args-inline')).toHaveText('import os');
  await card.getByRole('button', { name: 'Expand tool call' }).click();
  const code = card.getByTestId('tool-args-code');
  await expect(code).toHaveAttribute('data-highlighted', 'true');
  expect(await code.locator('.code-body').innerText()).toBe(
    "import os\n\nnames = os.listdir('.')\nprint(len(names))",
  );
  await card.getByTestId('output-line-numbers').click();
  await expect(card.getByTestId('output-line-numbers')).toHaveAttribute('aria-pressed', 'true');
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('markdown-and-code.png') });
});
