/**
 * Experiments from the GUI (issue 31), as a user does it: three runs of the history
 * become a dataset (their tasks, and their answers as the expected ones), an experiment
 * runs it on two variants (the default model and another profile's), the report says
 * which items flipped and that three of three is not distinguishable from noise, a flipped
 * item opens the step-aligned compare of its two runs at the first divergence; the dataset
 * is edited (a new version) and run again, and the regression chart marks the change.
 * The first experiment also has an LLM judge: a run it scored shows its scores in the run
 * view, and the judge's score opens the judge's own request and reply in the inspector.
 * Screenshots of the report and of the regression chart in test-results/.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { browserUnavailableReason } from './support/chromium';
import { openWorkbench, startRun, waitForOutcome } from './support/workbench';

const unavailable = browserUnavailableReason();
const FAST = 'gpt-e2e-fast';

async function runExperiment(
  page: Page,
  name: string,
  dataset: string,
  options: { judgeProfile?: string } = {},
): Promise<void> {
  await page.getByTestId('nav-experiments').click();
  await page.getByTestId('experiment-name').fill(name);
  await page.getByTestId('experiment-dataset').selectOption(dataset);
  const agents = page.getByTestId('experiment-variant-agent');
  await agents.nth(0).fill('toolcall');
  await agents.nth(1).fill('toolcall');
  await page.getByTestId('experiment-variant-profile').nth(1).selectOption('expfast');
  if (options.judgeProfile !== undefined) {
    // an LLM judge besides the answer scorer (the scripted server plays it: score 0.9)
    await page.getByTestId('experiment-scorer-add').click();
    const row = page.getByTestId('experiment-scorer').last();
    await row.getByTestId('experiment-scorer-kind').selectOption('judge');
    await row.getByTestId('experiment-scorer-name').fill('judge');
    const field = (key: string) =>
      row.locator(`[data-testid="experiment-scorer-field"][data-field="${key}"]`);
    await field('profile').fill(options.judgeProfile);
    await field('rubric').fill('1 when the answer names the model that answered, else 0');
  }
  await page.getByTestId('experiment-concurrency').fill('3');
  await page.getByTestId('experiment-start').click();
  const report = page.getByTestId('experiment-report');
  await expect(report).toHaveAttribute('data-total', '6');
  await expect(report).toHaveAttribute('data-state', 'complete', { timeout: 90_000 });
  await expect(report).toHaveAttribute('data-done', '6');
}

test('a dataset from three runs, an experiment from the GUI, a flipped item compared, the regression chart', async ({
  page,
}) => {
  test.skip(unavailable !== null, unavailable ?? '');
  test.setTimeout(240_000);
  const configFile = join(process.env['WORKBENCH_E2E_HOME'] ?? '', 'config.toml');
  const original = readFileSync(configFile, 'utf8');
  writeFileSync(configFile, `${original}\n[llm.expfast]\nmodel = "${FAST}"\n`);
  try {
    await openWorkbench(page);
    const stamp = Date.now();
    const dataset = `e2e-${stamp}`;
    const tasks = ['one', 'two', 'three'].map((n) => `which model answers ${n} (${stamp})`);
    const runIds: string[] = [];
    for (const task of tasks) {
      await startRun(page, task, 'toolcall');
      await waitForOutcome(page);
      runIds.push(
        (await page
          .locator('[data-testid="run-history-item"].is-selected')
          .getAttribute('data-run-id')) ?? '',
      );
    }

    // Add to dataset from a selection in the history, with the answers as expected.
    await page.getByTestId('history-compare-toggle').click();
    for (const runId of runIds)
      await page.locator(`[data-testid="history-compare-check"][data-run-id="${runId}"]`).check();
    await page.getByTestId('history-add-to-dataset').click();
    await page.getByTestId('add-to-dataset-name').fill(dataset);
    await page.getByTestId('add-to-dataset-answer').check();
    await page.getByTestId('add-to-dataset-confirm').click();
    await expect(page.getByTestId('add-to-dataset-result')).toContainText(
      `to ${dataset} (now 3 items`,
    );
    await page.getByTestId('add-to-dataset-result').getByRole('button', { name: 'open' }).click();
    const editor = page.getByTestId('dataset-editor');
    await expect(editor).toHaveAttribute('data-items', '3');
    await expect(page.getByTestId('dataset-item-expected').first()).toHaveValue(
      'I am answering as gpt-4o-e2e.',
    );
    const firstVersion = (await editor.getAttribute('data-version')) ?? '';
    expect(firstVersion).toMatch(/^sha256:/);

    // An experiment: A on the default model, B on another profile's; the answer scorer
    // and an LLM judge (on the fast profile).
    await runExperiment(page, `gui ${stamp}`, dataset, { judgeProfile: 'expfast' });
    const score = (variant: string, scorer: string) =>
      page.locator(
        `[data-testid="experiment-score"][data-variant="${variant}"][data-scorer="${scorer}"]`,
      );
    await expect(score('A', 'answer')).toHaveAttribute('data-mean', '1');
    await expect(score('B', 'answer')).toHaveAttribute('data-mean', '0');
    await expect(score('A', 'judge')).toHaveAttribute('data-mean', '0.9');
    await expect(score('B', 'judge')).toHaveAttribute('data-mean', '0.9');
    const comparison = page.locator('[data-testid="experiment-comparison"][data-scorer="answer"]');
    await expect(comparison).toHaveAttribute('data-verdict', 'noise');
    await expect(comparison).toContainText('not distinguishable from noise (p = 0.250)');
    const flips = page.getByTestId('experiment-flipped');
    await expect(flips).toHaveCount(3);
    await page.screenshot({ path: 'test-results/issue31-experiment-report.png', fullPage: true });

    // A cell opens its run.
    const cellRun = page.getByTestId('experiment-cell-run').first();
    const cellRunId = (await cellRun.getAttribute('data-run-id')) ?? '';
    await cellRun.click();
    await expect(page).toHaveURL(new RegExp(`#/run/${cellRunId}$`));
    await expect(page.getByTestId('run-outcome')).toHaveText('finished');
    // Its scores in the run view, and the judge's own model call in the inspector.
    const scores = page.getByTestId('run-score');
    await expect(scores).toHaveCount(2);
    await expect(scores.nth(0)).toHaveAttribute('data-scorer', 'answer');
    await expect(scores.nth(0)).toHaveAttribute('data-passed', 'true');
    await expect(scores.nth(0)).toContainText('Scores');
    const judged = scores.nth(1);
    await expect(judged).toHaveAttribute('data-scorer', 'judge');
    await expect(judged).toHaveAttribute('data-score', '0.9');
    await expect(judged).toContainText(`judged by ${FAST}: the answer names its model`);
    await judged.getByTestId('run-score-judge').click();
    const call = page.getByTestId('judge-call');
    await expect(call).toHaveAttribute('data-model', FAST);
    await expect(call).toHaveAttribute('data-profile', 'expfast');
    const messages = call.getByTestId('context-message');
    await expect(messages).toHaveCount(2);
    await expect(messages.nth(0)).toHaveAttribute('data-role', 'system');
    await expect(messages.nth(1)).toContainText('I am answering as gpt-4o-e2e.');
    await call.locator('[data-testid="request-tab"][data-tab="raw"]').click();
    await expect(call.getByTestId('request-raw')).toContainText('workbench score judge');
    await call.locator('[data-testid="request-tab"][data-tab="response"]').click();
    await expect(call.getByTestId('request-response')).toContainText('\\"score\\": 0.9');
    await page.screenshot({ path: 'test-results/issue31-judge-call.png' });
    await page.goBack();

    // A flipped item opens the step-aligned compare of its two runs, at the first divergence.
    const flip = page.getByTestId('experiment-flipped').first();
    const aRun = (await flip.getAttribute('data-a-run')) ?? '';
    const bRun = (await flip.getAttribute('data-b-run')) ?? '';
    await flip.click();
    await expect(page).toHaveURL(new RegExp(`#/compare/${aRun},${bRun}$`));
    await expect(page.getByTestId('compare-view')).toHaveAttribute('data-state', 'ready');
    const first = page.locator('[data-testid="compare-row"][data-first-divergence="true"]');
    await expect(first).toBeVisible();
    await expect(first).toHaveAttribute('aria-current', 'true');
    await page.screenshot({ path: 'test-results/issue31-flipped-item-compare.png' });

    // The dataset edited (a new version), the experiment run again.
    await page.getByTestId('nav-experiments').click();
    await page.locator(`[data-testid="dataset-list-item"][data-dataset="${dataset}"]`).click();
    await page.getByTestId('dataset-item-metadata').first().fill('{"topic": "models"}');
    await page.getByTestId('dataset-save').click();
    await expect(page.getByTestId('dataset-saved')).toContainText('Saved: version sha256:');
    await expect(editor).not.toHaveAttribute('data-version', firstVersion);
    await runExperiment(page, `gui again ${stamp}`, dataset);

    // The regression view: one chart for the scorer, a line per variant, the change ringed.
    await page.getByTestId('experiment-trend-link').click();
    // (the judge ran in the first experiment only: its chart has one point per line)
    await expect(page.getByTestId('regression-chart')).toHaveCount(2);
    const chart = page.locator('[data-testid="regression-chart"][data-scorer="answer"]');
    await expect(chart.getByTestId('regression-line')).toHaveCount(2);
    await expect(
      chart.locator('[data-testid="regression-line"][data-variant="A"]'),
    ).toHaveAttribute('data-points', '2');
    await expect(chart.getByTestId('regression-change')).toHaveCount(2);
    await expect(page.getByTestId('regression-view')).toContainText(`dataset ${firstVersion} →`);
    await page.screenshot({ path: 'test-results/issue31-regression-chart.png', fullPage: true });
  } finally {
    writeFileSync(configFile, original);
  }
});
