/**
 * Issue 25 item 2: a 5,000-step run's health counts were about doubled in the UI once
 * its second page of events was in, while `runs list` had them right. The run header,
 * its history row and `workbench runs list --json` must agree on every count, while the
 * run loads, after it loaded and after a reload, with counts `tallyHealth` takes from
 * the history's JSONL file itself.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { RunEvent } from '../src-shared/events';
import type { RunHealth, RunSummary } from '../src-shared/ipc';
import { tallyHealth } from '../src-renderer/testing/health-tally';
import { stuckRunInChunks } from '../src-renderer/testing/stuck-run';
import { browserUnavailableReason } from './support/chromium';
import { openWorkbench } from './support/workbench';

const unavailable = browserUnavailableReason();
const STEPS = 5_000;
const home = () => process.env['WORKBENCH_E2E_HOME']!;

function writeLoopingRun(runId: string): string {
  const dir = join(home(), 'runs');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${runId}.jsonl`);
  writeFileSync(file, '');
  stuckRunInChunks(runId, STEPS, { startTs: Date.now() }, (events) =>
    appendFileSync(file, events.map((e) => `${JSON.stringify(e)}\n`).join('')),
  );
  return file;
}

/** The counts from the file as written: one event per line. */
function tallyFile(file: string): RunHealth {
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  return tallyHealth(lines.map((line) => JSON.parse(line) as RunEvent));
}

/** `workbench runs list --json` over the same home, as a user would run it beside the app. */
function cliHealth(runId: string): RunHealth | undefined {
  const out = execFileSync(process.execPath, ['bin/workbench.js', 'runs', 'list', '--json'], {
    env: { ...process.env, WORKBENCH_HOME: home() },
    encoding: 'utf8',
  });
  return (JSON.parse(out) as RunSummary[]).find((s) => s.runId === runId)?.health;
}

/** A health line's counts as shown: each part's `data-count`; the calls from "N tool errors of M". */
async function shownHealth(line: Locator): Promise<RunHealth> {
  const count = async (key: keyof RunHealth) => {
    const part = line.locator(`[data-health="${key}"]`);
    return (await part.count()) === 0 ? 0 : Number(await part.getAttribute('data-count'));
  };
  const errors = line.locator('[data-health="toolErrors"]');
  const calls = (await errors.count()) === 0 ? '' : await errors.innerText();
  return {
    toolCalls: Number(/ of (\d+)/.exec(calls)?.[1] ?? 0),
    toolErrors: await count('toolErrors'),
    stuck: await count('stuck'),
    duplicates: await count('duplicates'),
    retries: await count('retries'),
  };
}

/** The page's DOM, typed for what the watcher below uses (this project's Node typings have no DOM lib). */
interface WatchedPage {
  document: {
    body: unknown;
    querySelector(selector: string): { getAttribute(name: string): string | null } | null;
    querySelectorAll(selector: string): ArrayLike<{ getAttribute(name: string): string | null }>;
  };
  MutationObserver: new (callback: () => void) => { observe(target: unknown, o: object): void };
  __healthSeen?: string[];
}

/** Records every distinct set of header counts the page shows from now on. */
async function watchHeaderCounts(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = globalThis as unknown as WatchedPage;
    const seen: string[] = [];
    w.__healthSeen = seen;
    const record = () => {
      const parts = w.document.querySelectorAll('[data-testid="run-health"] [data-health]');
      if (parts.length === 0) return;
      const text = Array.from(
        parts,
        (p) => `${p.getAttribute('data-health')}=${p.getAttribute('data-count')}`,
      ).join(' ');
      if (seen.at(-1) !== text) seen.push(text);
    };
    new w.MutationObserver(record).observe(w.document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-count'],
    });
  });
}

const seenHeaderCounts = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as WatchedPage).__healthSeen ?? []);

const asParts = (h: RunHealth) =>
  `toolErrors=${h.toolErrors} stuck=${h.stuck} duplicates=${h.duplicates} retries=${h.retries}`;

/**
 * Waits until every page of the run is in: End selects the timeline's last row and
 * brings it into view, and the last event is `run.finished`. Counted, not awaited: a
 * row the window has not rendered yet must not hold the poll.
 */
async function waitForAllEvents(page: Page): Promise<void> {
  const timeline = page.getByTestId('timeline');
  await expect
    .poll(
      async () => {
        await timeline.focus();
        await page.keyboard.press('End');
        return page.getByTestId('run-finished').count();
      },
      { timeout: 90_000, intervals: [500] },
    )
    .toBe(1);
}

test('a 5,000-step run: header, history row and runs list agree with the history file on every count', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  test.setTimeout(240_000);
  const runId = `looping-${Date.now()}`;
  const file = writeLoopingRun(runId);
  const expected = tallyFile(file);
  // every count is there, so none can hide behind a part the line leaves out
  expect(Object.values(expected).every((n) => n > 0)).toBe(true);
  expect(cliHealth(runId)).toEqual(expected);

  await openWorkbench(page);
  const row = page.locator(`[data-testid="run-history-item"][data-run-id="${runId}"]`);
  const rowHealth = row.getByTestId('history-health');
  await expect.poll(() => shownHealth(rowHealth)).toEqual(expected);

  await watchHeaderCounts(page);
  await row.click();
  const header = page.getByTestId('run-health');
  await expect(page.getByTestId('run-outcome')).toHaveText('max steps reached', {
    timeout: 60_000,
  });
  await waitForAllEvents(page);
  expect(await shownHealth(header)).toEqual(expected);
  expect(await shownHealth(rowHealth)).toEqual(expected);
  // never another count while the pages came in
  expect(await seenHeaderCounts(page)).toEqual([asParts(expected)]);
  expect(cliHealth(runId)).toEqual(expected);
  await page.screenshot({ path: testInfo.outputPath('long-run-health.png') });

  // a reload opens the run again from its address and counts the same
  await page.reload();
  await expect(page.getByTestId('app')).toHaveAttribute('data-app-state', 'ready');
  await expect(page.getByTestId('run-outcome')).toHaveText('max steps reached', {
    timeout: 60_000,
  });
  await waitForAllEvents(page);
  expect(await shownHealth(page.getByTestId('run-health'))).toEqual(expected);
  expect(await shownHealth(rowHealth)).toEqual(expected);
  await page.screenshot({ path: testInfo.outputPath('long-run-health-reloaded.png') });
});
