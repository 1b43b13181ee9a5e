/**
 * Scrolls a list top to bottom, one viewport per frame, under a Chromium trace, and
 * returns its main-thread task figures (trace-tasks.ts).
 *
 * The trace is taken in segments of SEGMENT_FRAMES frames: one trace over a 10,000-row
 * scroll grew to hundreds of MB. On 2 December Chromium also stopped sending frames to
 * the page mid-scroll (headless and headed under Xvfb; every thread of the renderer idle,
 * no CPU used), and the scroll waited on requestAnimationFrame forever. Each frame now
 * also has a timer: after a second without a frame the scroll goes on from the timer, and
 * the count of such frames is printed and returned, so a figure from a stalled scroll
 * says so.
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
  /**
   * frames that came from the fallback timer: Chromium sent no frame for a second (it
   * stopped sending any, headless and headed, mid-scroll, on 2 December); their scroll
   * still runs its tasks, but they are not painted frames
   */
  stalledFrames: number;
}

interface FrameGlobals {
  requestAnimationFrame(cb: () => void): number;
  setTimeout(cb: () => void, ms: number): number;
  clearTimeout(id: number): void;
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
    stalledFrames: 0,
  };
  let kept: { trace: Buffer; maxMs: number } | null = null;
  for (;;) {
    const budget = Math.min(SEGMENT_FRAMES, maxFrames - total.scrollFrames);
    await browser.startTracing(page, { categories: traceCategories() });
    const segment = await list.evaluate(
      (el, budget) =>
        new Promise<{ frames: number; stalled: number; atEnd: boolean; wallMs: number }>(
          (resolve) => {
            const w = globalThis as unknown as FrameGlobals;
            const started = w.performance.now();
            let frames = 0;
            let stalled = 0;
            const step = () => {
              const atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - 1;
              if (atEnd || frames >= budget) {
                resolve({ frames, stalled, atEnd, wallMs: w.performance.now() - started });
                return;
              }
              frames++;
              el.scrollTop += el.clientHeight;
              next();
            };
            // the next frame, or a timer when Chromium sends no frame for STALL_MS
            const next = () => {
              let done = false;
              const timer = w.setTimeout(() => {
                if (done) return;
                done = true;
                stalled++;
                // frames that stopped may not come back: the rest of the segment steps
                // every 50 ms rather than once a second (a 10,000-row scroll would take hours)
                stallMs = 50;
                step();
              }, stallMs);
              w.requestAnimationFrame(() => {
                if (done) return;
                done = true;
                w.clearTimeout(timer);
                step();
              });
            };
            let stallMs = 1_000;
            next();
          },
        ),
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
    total.stalledFrames += segment.stalled;
    // the segment with the longest task is the one a person will want to open
    if (!kept || tasks.maxMs > kept.maxMs) kept = { trace, maxMs: tasks.maxMs };
    if (segment.atEnd || total.scrollFrames >= maxFrames) break;
    // a page without frames sometimes gets them back when brought to the front
    if (segment.stalled > 0) await page.bringToFront();
  }
  if (kept) keepTrace(kept.trace, `scroll-${label}`);
  if (total.stalledFrames > 0)
    console.error(
      `[bench] ${label}: ${total.stalledFrames} of ${total.scrollFrames} frames came from the fallback timer (Chromium stopped sending frames; those frames were not painted)`,
    );
  return total;
}
