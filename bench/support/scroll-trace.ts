/**
 * Scrolls a list top to bottom, one viewport per frame, under a Chromium trace, and
 * returns its main-thread task figures (trace-tasks.ts).
 *
 * The trace is taken in segments of SEGMENT_FRAMES frames. One trace over a 10,000-row
 * scroll grew to hundreds of MB of events, and twice on 2 December the renderer's main
 * thread then sat blocked (futex wait, no CPU) with the scroll half done: the trace
 * buffer's writers wait for room that only the end of the trace makes. A segment's trace
 * stays small; between segments the page is idle, which adds no task to the figures.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { keepTrace, longestTask, traceCategories } from './trace-tasks';

const SEGMENT_FRAMES = 500;

export interface ScrollFigures {
  longestTaskMs: number;
  longestTaskCpuMs: number;
  /** tasks over 50 ms wall */
  longTasks: number;
  scrollFrames: number;
  /** the scroll's main-thread tasks: busy wall time and own CPU time */
  scrollBusyMs: number;
  scrollCpuMs: number;
  /** the scroll's wall time, segments' trace hand-overs excluded */
  scrollWallMs: number;
}

interface FrameGlobals {
  requestAnimationFrame(cb: () => void): number;
  performance: { now(): number };
}

export async function scrollUnderTrace(
  browser: Browser,
  page: Page,
  list: Locator,
  maxFrames: number,
  label: string,
): Promise<ScrollFigures> {
  await list.evaluate((el) => (el.scrollTop = 0));
  await page.waitForTimeout(200);
  const total: ScrollFigures = {
    longestTaskMs: 0,
    longestTaskCpuMs: 0,
    longTasks: 0,
    scrollFrames: 0,
    scrollBusyMs: 0,
    scrollCpuMs: 0,
    scrollWallMs: 0,
  };
  let kept: { trace: Buffer; maxMs: number } | null = null;
  for (;;) {
    const budget = Math.min(SEGMENT_FRAMES, maxFrames - total.scrollFrames);
    await browser.startTracing(page, { categories: traceCategories() });
    const segment = await list.evaluate(
      (el, budget) =>
        new Promise<{ frames: number; atEnd: boolean; wallMs: number }>((resolve) => {
          const w = globalThis as unknown as FrameGlobals;
          const started = w.performance.now();
          let frames = 0;
          const step = () => {
            const atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - 1;
            if (atEnd || frames >= budget) {
              resolve({ frames, atEnd, wallMs: w.performance.now() - started });
              return;
            }
            frames++;
            el.scrollTop += el.clientHeight;
            w.requestAnimationFrame(step);
          };
          w.requestAnimationFrame(step);
        }),
      budget,
    );
    const trace = await browser.stopTracing();
    const tasks = longestTask(trace);
    total.longestTaskMs = Math.max(total.longestTaskMs, tasks.maxMs);
    total.longestTaskCpuMs = Math.max(total.longestTaskCpuMs, tasks.maxCpuMs);
    total.longTasks += tasks.over50;
    total.scrollBusyMs += tasks.wallMs;
    total.scrollCpuMs += tasks.cpuMs;
    total.scrollFrames += segment.frames;
    total.scrollWallMs += segment.wallMs;
    // the segment with the longest task is the one a person will want to open
    if (!kept || tasks.maxMs > kept.maxMs) kept = { trace, maxMs: tasks.maxMs };
    if (segment.atEnd || total.scrollFrames >= maxFrames) break;
  }
  if (kept) keepTrace(kept.trace, `scroll-${label}`);
  return total;
}
