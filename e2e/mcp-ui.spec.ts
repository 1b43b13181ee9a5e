/**
 * Issue 26, the MCP client in the UI, against a real MCP server from npm
 * (`@modelcontextprotocol/server-everything` over stdio) on a `workbench serve` of the
 * spec's own with the scripted model: the server's elicitation answered as a form in the
 * page (a refused value shown by its field first), its log messages in the "Server logs"
 * panel with the level filter, a structured result as a tree, a sampling call shown as
 * the server's model call, and a run started from one of its prompts in the New run form.
 */
import { expect, test, type Page } from '@playwright/test';
import { stringify } from 'smol-toml';
import { EVERYTHING } from '../src-main/runtime/tools/mcp/testing/reference-servers';
import { browserUnavailableReason } from './support/chromium';
import { startPrivateServer, type PrivateServer } from './support/private-server';
import { waitForOutcome } from './support/workbench';

const unavailable = browserUnavailableReason();
let server: PrivateServer;

const call = (name: string, args: Record<string, unknown> = {}) => ({
  name: `mcp_everything_${name}`,
  arguments: args,
});
const terminate = { name: 'terminate', arguments: { status: 'success' } };

test.beforeAll(async () => {
  if (unavailable) return;
  server = await startPrivateServer({
    configToml: stringify({
      llm: { api_type: 'scripted', model: 'gpt-4o', scenario: 'mcp-ui.json' },
      mcp: {
        servers: {
          everything: {
            type: 'stdio',
            command: process.execPath,
            args: [EVERYTHING, 'stdio'],
            log_level: 'debug',
            timeout: 120,
          },
        },
      },
    }),
    files: {
      'mcp-ui.json': JSON.stringify({
        default: 'sampled',
        scenarios: [
          {
            // what the server's sampling request gets (its message matches no run's task)
            name: 'sampled',
            turns: [{ content: 'Hello from the sampled model' }],
          },
          {
            name: 'form',
            match: ['fill the form'],
            turns: [
              { content: 'Turning on the logs.', toolCalls: [call('toggle-simulated-logging')] },
              { content: 'Asking you.', toolCalls: [call('trigger-elicitation-request')] },
              { content: 'Thanks.', toolCalls: [call('toggle-simulated-logging')] },
              { content: 'Done.', toolCalls: [terminate] },
            ],
          },
          {
            name: 'structured',
            match: ['structured result'],
            turns: [
              {
                content: 'Checking the weather.',
                toolCalls: [call('get-structured-content', { location: 'Los Angeles' })],
              },
              {
                content: 'Asking the server to sample.',
                toolCalls: [call('trigger-sampling-request', { prompt: 'Say hello' })],
              },
              { content: 'Done.', toolCalls: [terminate] },
            ],
          },
          {
            name: 'prompted',
            match: ["/What's weather in Paris/"],
            turns: [{ content: 'Sunny in Paris.', toolCalls: [terminate] }],
          },
        ],
      }),
    },
  });
});
test.afterAll(async () => {
  await server?.stop();
});

async function startMcpRun(page: Page, task: string): Promise<void> {
  await page.getByTestId('new-run').click();
  await page.getByTestId('agent-select').selectOption('mcp');
  await page.getByTestId('task-input').fill(task);
  await page.getByTestId('run-start').click();
  await expect(page.getByTestId('run-title')).toContainText(task);
}

test.describe.configure({ mode: 'serial' });

test('the elicitation form is answered in the page; the server logs show, filtered by level', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await page.goto(server.url);
  await expect(page.getByTestId('app')).toHaveAttribute('data-app-state', 'ready');
  await startMcpRun(page, 'Please fill the form of the server');

  const form = page.getByTestId('elicit-form');
  await expect(form).toBeVisible({ timeout: 60_000 });
  await expect(form).toHaveAttribute('data-server', 'everything');
  await expect(form).toContainText('Please provide inputs for the following fields:');
  const field = (name: string) =>
    form.locator(`[data-testid="elicit-field"][data-field="${name}"]`);
  await expect(field('check')).toHaveAttribute('type', 'checkbox');
  await expect(field('integer')).toHaveValue('42');
  await expect(field('untitledSingleSelectEnum')).toHaveJSProperty('tagName', 'SELECT');

  // a value out of range is refused next to its field, before anything is sent
  await field('name').fill('Ada Lovelace');
  await field('integer').fill('500');
  await page.getByTestId('elicit-accept').click();
  await expect(
    form.locator('[data-testid="elicit-field-error"][data-field="integer"]'),
  ).toContainText('must be at most 100');
  await page.screenshot({ path: testInfo.outputPath('mcp-elicitation-refused.png') });

  // the simulated logs arrive every 5 s while the question waits
  const panel = page.getByTestId('mcp-log-panel');
  await expect(panel).toBeVisible({ timeout: 30_000 });
  await field('integer').fill('7');
  await field('email').fill('ada@example.com');
  await page.screenshot({ path: testInfo.outputPath('mcp-elicitation-form.png'), fullPage: true });
  await page.getByTestId('elicit-accept').click();
  await expect(form).toHaveCount(0);
  await waitForOutcome(page);

  // the server's answer to the accepted form reached the model as the tool result
  const elicitCard = page.locator(
    '[data-testid="tool-call"][data-tool="mcp_everything_trigger-elicitation-request"]',
  );
  await expect(elicitCard).toContainText('Ada Lovelace');

  await panel.locator('summary').click();
  const lines = panel.getByTestId('mcp-log-line');
  await expect(lines.first()).toBeVisible();
  const count = Number(await panel.getAttribute('data-count'));
  expect(count).toBeGreaterThan(0);
  await expect(lines.first()).toHaveAttribute('data-server', 'everything');
  // default: info and above; debug shows every line
  await page.getByTestId('mcp-log-level').selectOption('debug');
  await expect(panel).toHaveAttribute('data-shown', String(count));
  await page.screenshot({ path: testInfo.outputPath('mcp-server-logs.png'), fullPage: true });
  await page.getByTestId('mcp-log-level').selectOption('emergency');
  const atEmergency = Number(await panel.getAttribute('data-shown'));
  expect(atEmergency).toBeLessThan(count);
  await expect(lines).toHaveCount(atEmergency);
  for (const level of await lines.evaluateAll((els) => els.map((e) => e.dataset['level'])))
    expect(level).toBe('emergency');
});

test("a structured result shows as a tree, and the server's sampling call as a model call", async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await page.goto(server.url);
  await expect(page.getByTestId('app')).toHaveAttribute('data-app-state', 'ready');
  await startMcpRun(page, 'Give a structured result of the weather');
  await waitForOutcome(page);

  const weather = page.locator(
    '[data-testid="tool-call"][data-tool="mcp_everything_get-structured-content"]',
  );
  const tree = weather.getByTestId('tool-structured');
  await expect(tree).toBeVisible();
  await expect(tree.locator('[data-testid="json-node"][data-path="/temperature"]')).toHaveText(
    'temperature: 73',
  );
  await expect(tree.locator('[data-testid="json-node"][data-path="/conditions"]')).toHaveText(
    'conditions: "Sunny / Clear"',
  );

  const sampling = page
    .locator('[data-testid="tool-call"][data-tool="mcp_everything_trigger-sampling-request"]')
    .getByTestId('tool-sampling');
  await expect(sampling).toHaveAttribute('data-server', 'everything');
  await expect(sampling).toHaveAttribute('data-answered', 'true');
  await expect(sampling).toContainText('Model call: sampling request of MCP server everything');
  await expect(sampling).toContainText('Say hello');
  await expect(sampling).toContainText('Hello from the sampled model');
  await weather.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('mcp-structured-and-sampling.png') });
});

test('a run starts from an MCP prompt picked in the New run form', async ({ page }, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  await page.goto(server.url);
  await expect(page.getByTestId('app')).toHaveAttribute('data-app-state', 'ready');
  await page.getByTestId('new-run').click();
  await page.getByTestId('agent-select').selectOption('mcp');
  await page.getByTestId('prompt-toggle').check();
  const row = page.locator('[data-testid="prompt-server"][data-server="everything"]');
  await expect(row).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  await page.getByTestId('prompt-select').selectOption('everything/args-prompt');
  const city = page.locator('[data-testid="prompt-arg"][data-arg="city"]');
  await expect(city).toHaveAttribute('data-required', 'true');
  await city.fill('Paris');
  await page.screenshot({ path: testInfo.outputPath('mcp-prompt-picker.png') });
  await page.getByTestId('run-start').click();

  const origin = page.getByTestId('run-prompt-origin');
  await expect(origin).toHaveText('from MCP prompt everything/args-prompt (city = Paris)');
  await waitForOutcome(page);
  await expect(
    page.locator('[data-testid="timeline-message"][data-role="assistant"]'),
  ).toContainText('Sunny in Paris.');
  await page.screenshot({ path: testInfo.outputPath('mcp-prompt-run.png') });
});
