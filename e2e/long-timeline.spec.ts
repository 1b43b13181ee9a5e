/**
 * A long run in the real UI (issue 17, the timeline "as fast as ours"): the row window
 * places rows in normal flow and measures them as they come into view. Whatever the
 * scroll, the rows in the DOM must touch each other and cover the view (no gap, no
 * overlap, no blank screen), and keys, the minimap and links must bring rows thousands
 * of rows away into view once the rows around them are measured.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { longRunInChunks } from '../src-renderer/testing/run-script';
import { browserUnavailableReason } from './support/chromium';
import { E2E_URL } from './support/server';
import { openWorkbench } from './support/workbench';

const unavailable = browserUnavailableReason();
const STEPS = 1_500;

function writeLongRun(runId: string): void {
  const dir = join(process.env['WORKBENCH_E2E_HOME']!, 'runs');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${runId}.jsonl`);
  writeFileSync(file, '');
  longRunInChunks(runId, STEPS, { startTs: Date.now(), isRich: true }, (events) =>
    appendFileSync(file, events.map((e) => JSON.stringify(e)).join('\n') + '\n'),
  );
}

/** What the page checks at a scroll position (the Node typings here have no DOM lib). */
interface Placement {
  top: number;
  gaps: string[];
  covered: boolean;
}

test('a long run scrolls with its rows touching and covering the view; far rows come into view', async ({
  page,
}, testInfo) => {
  test.skip(unavailable !== null, unavailable ?? '');
  test.setTimeout(120_000);
  const runId = `long-${Date.now()}`;
  writeLongRun(runId);
  await openWorkbench(page);
  await page.locator(`[data-testid="run-history-item"][data-run-id="${runId}"]`).click();
  await expect(page.getByTestId('run-outcome')).toBeVisible({ timeout: 60_000 });
  const timeline = page.getByTestId('timeline');
  // every slice of the history folded in: a step is three rows (header, reply, tool call)
  await expect
    .poll(async () => Number(await timeline.getAttribute('data-count')), { timeout: 60_000 })
    .toBeGreaterThanOrEqual(STEPS * 3);

  // jumps to far positions, then a sweep of one viewport per frame, as a fast wheel does
  const placements = await timeline.evaluate(async (list) => {
    const raf = (globalThis as unknown as { requestAnimationFrame(cb: () => void): number })
      .requestAnimationFrame;
    const frame = () => new Promise<void>((r) => raf(() => r()));
    const check = (): Placement => {
      const view = list.getBoundingClientRect();
      const rows = [...list.querySelectorAll('.vrow')].map((row) => row.getBoundingClientRect());
      const gaps: string[] = [];
      for (let i = 1; i < rows.length; i++) {
        const step = rows[i]!.top - rows[i - 1]!.bottom;
        if (Math.abs(step) > 1) gaps.push(`row ${i}: ${step.toFixed(1)} px`);
      }
      const covered =
        rows.length > 0 &&
        rows[0]!.top <= view.top + 1 &&
        (rows[rows.length - 1]!.bottom >= view.bottom - 1 ||
          list.scrollTop + list.clientHeight >= list.scrollHeight - 1);
      return { top: list.scrollTop, gaps, covered };
    };
    // the rows of the first render, as the run opened
    const out: Placement[] = [check()];
    for (const at of [0.5, 0.13, 0.93, 0.37, 1, 0.71, 0]) {
      list.scrollTop = at * (list.scrollHeight - list.clientHeight);
      await frame();
      await frame();
      out.push(check());
    }
    list.scrollTop = 0;
    await frame();
    for (let i = 0; i < 60; i++) {
      list.scrollTop += list.clientHeight;
      await frame();
      await frame();
      out.push(check());
    }
    return out;
  });
  const bad = placements.filter((p) => p.gaps.length > 0 || !p.covered);
  expect(bad, JSON.stringify(bad.slice(0, 3))).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('long-run-scrolled.png') });

  // End and Home select the last and first rows and bring them into view
  const selected = page.locator('[data-item-id][aria-selected="true"]');
  await timeline.focus();
  await page.keyboard.press('End');
  await expect(selected).toHaveAttribute('data-testid', 'run-finished');
  await expect(selected).toBeInViewport();
  await page.keyboard.press('Home');
  await expect(selected).toHaveAttribute('data-kind', 'run');
  await expect(selected).toBeInViewport();

  // a minimap mark in the middle of the run jumps to its row, thousands of rows away
  const marks = page.getByTestId('minimap-mark');
  const middle = marks.nth(Math.floor((await marks.count()) / 2));
  const target = await middle.getAttribute('data-item-target');
  // Marks of nearby rows overlap on the minimap's few pixels (an error mark can lie over a
  // duplicate mark); the click is sent to this mark itself.
  await middle.dispatchEvent('click');
  await expect(page.locator(`[data-item-id="${target}"]`)).toBeInViewport();

  // a link to that row opens the run there after a reload
  await page.goto(`${E2E_URL}#/run/${runId}/event/${target}`);
  await page.reload();
  await expect(selected).toHaveAttribute('data-item-id', target!, { timeout: 60_000 });
  await expect(selected).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath('long-run-deep-link.png') });
});
