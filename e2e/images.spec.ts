/**
 * Issue 17 item 3, images inline: an MCP tool's image (the SDK test server's `snapshot`,
 * a PNG) shows as a thumbnail in its timeline row and full width in the inspector, with
 * its type and size, and opens large. Through `workbench serve` (the image comes from its
 * /run-images route) with the scripted model, on a server of the spec's own (its config
 * names the MCP server and the scenario).
 */
import { expect, test } from '@playwright/test';
import { stringify } from 'smol-toml';
import { testServerArgs } from '../src-main/runtime/tools/mcp/testing/test-mcp-process';
import { browserUnavailableReason } from './support/chromium';
import { startPrivateServer, type PrivateServer } from './support/private-server';
import { waitForOutcome } from './support/workbench';

const unavailable = browserUnavailableReason();
let server: PrivateServer;

test.beforeAll(async () => {
  if (unavailable) return;
  server = await startPrivateServer({
    configToml: stringify({
      llm: { api_type: 'scripted', model: 'gpt-4o', scenario: 'images.json' },
      mcp: {
        servers: {
          pics: { type: 'stdio', command: process.execPath, args: testServerArgs('stdio') },
        },
      },
    }),
    files: {
      'images.json': JSON.stringify({
        scenarios: [
          {
            name: 'picture',
            turns: [
              {
                content: 'Let me take a picture.',
                toolCalls: [{ name: 'mcp_pics_snapshot', arguments: {} }],
              },
              {
                content: 'A small red square.',
                toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }],
              },
            ],
          },
        ],
      }),
    },
  });
});
test.afterAll(async () => {
  await server?.stop();
});

test('an MCP tool image shows inline in the timeline and in the inspector', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await page.goto(server.url);
  await expect(page.getByTestId('app')).toHaveAttribute('data-app-state', 'ready');
  await page.getByTestId('new-run').click();
  await page.getByTestId('agent-select').selectOption('mcp');
  await page.getByTestId('task-input').fill('Take a picture with the MCP server');
  await page.getByTestId('run-start').click();
  await waitForOutcome(page);

  // the row: a thumbnail in its fixed box, really loaded from serve's image route
  const thumb = page.getByTestId('timeline').getByTestId('message-image');
  await expect(thumb).toHaveCount(1);
  await expect(thumb).toHaveAttribute('data-mime', 'image/png');
  const ref = (await thumb.getAttribute('data-ref'))!;
  expect(ref).toMatch(/^[0-9a-f]{64}\.png$/);
  const img = thumb.locator('img');
  await expect(img).toHaveAttribute('loading', 'lazy');
  await expect(img).toHaveAttribute('src', new RegExp(`^/run-images/[^/]+/${ref}\\?token=`));
  await expect
    .poll(() => img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth))
    .toBe(2);
  const box = await thumb.boundingBox();
  expect(box).toMatchObject({ width: 96, height: 64 });

  // served with its type and nosniff
  const src = (await img.getAttribute('src'))!;
  const response = await page.request.get(new URL(src, server.url).toString());
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('image/png');
  expect(response.headers()['x-content-type-options']).toBe('nosniff');
  const traversal = await page.request.get(
    new URL(src.replace(ref, '..%2F..%2Fconfig.toml'), server.url).toString(),
  );
  expect(traversal.status()).toBe(400);

  // the inspector: full width, with its type, size and dimensions
  await thumb.click();
  const inspector = page.getByTestId('inspector');
  const figure = inspector.getByTestId('message-image');
  await expect(figure).toContainText('PNG · 2×2 · 79 B');
  await expect
    .poll(() =>
      figure
        .locator('img')
        .evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth),
    )
    .toBe(2);
  await page.screenshot({ path: testInfo.outputPath('image-inline.png') });

  await inspector.getByTestId('image-open').click();
  await expect(page.getByTestId('image-lightbox')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('image-large.png') });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('image-lightbox')).toHaveCount(0);
});
