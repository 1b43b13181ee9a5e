/**
 * Compare runs (`npm run bench -- diff`): two 10,000-step runs (about 80,000 events
 * each, as the runtime emits them), read back from JSON as the host reads a history.
 *
 * - Alignment: `diffRuns` (step digests, run facts and the alignment) in Node, for an
 *   identical pair, a pair where B inserts one step half-way, and a pair where B
 *   diverges at step 3 and every later reply differs (no identical step to anchor on:
 *   the banded dynamic programme over the whole run). Median of 5. Target < 1 s.
 *   Baseline in the same run: the same cases at 1,000 steps.
 * - The host's `runs:diff` in Node (RunComparer over a RunStore): from the histories, as
 *   every comparison did before issue 27 and as the first comparison of a history recorded
 *   before its digests were stored still does (the baseline), and from the digests stored
 *   beside the histories (compare-digests.ts), as for every run that finished since.
 * - First render of the compare view in Chromium through `workbench serve`: from the
 *   click on "Compare" (two runs picked in the history) to the frame after the current
 *   row (the first divergence) is painted with its steps' contents, with its `runs:diff`
 *   part; the longest main-thread task while the rows are scrolled top to bottom (each
 *   row's contents come in pages, `runs:steps`); the renderer heap after GC. Baselines:
 *   the same pair without stored digests (the host reads both histories), and 1,000 steps.
 *   With WORKBENCH_BENCH_100K=1, also two 100,000-step runs with stored digests.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { benchProgress, launchBenchBrowser } from './support/bench-browser';
import { diffRuns, digestRun, headRun } from '../src-shared/compare/diff-runs';
import { digestFilesOf, logStamp, saveDigests } from '../src-main/runtime/runs/compare-digests';
import { RunComparer } from '../src-main/runtime/runs/run-compare';
import { RunStore } from '../src-main/runtime/runs/run-store';
import type { RunEvent } from '../src-shared/events';
import { longRun } from '../src-renderer/testing/run-script';
import { report, type BenchResult, type Figure } from './report';
import { heapAfterGc, startServe, type PageGlobals } from './ui-load.bench';
import { scrollUnderTrace } from './support/scroll-trace';

/** Another model from step 3 on: every reply is worded differently, the tool work is the same. */
function reworded(runId: string, steps: number, startTs: number): RunEvent[] {
  return longRun(runId, steps, { startTs }).map((e) => {
    if (e.type === 'llm.responded' && e.step >= 3 && e.content) {
      return { ...e, content: e.content.replace('I will run', 'Let me try') };
    }
    return e;
  });
}

/** B inserts one extra step half-way (its later steps are renumbered, as a runtime would). */
function withInsertedStep(runId: string, steps: number, startTs: number): RunEvent[] {
  const events = longRun(runId, steps, { startTs });
  const half = Math.floor(steps / 2);
  const at = events.findIndex((e) => e.type === 'step.started' && e.step === half);
  const extra = events
    .filter((e) => 'step' in e && e.step === half)
    .map((e) => ({
      ...e,
      ...(e.type === 'llm.responded' ? { content: 'An extra look first.' } : {}),
    }));
  const shifted = events.slice(at).map((e) => ('step' in e ? { ...e, step: e.step + 1 } : e));
  return [...events.slice(0, at), ...extra, ...shifted].map((e, i) => ({ ...e, seq: i + 1 }));
}

const viaJson = (events: RunEvent[]) => JSON.parse(JSON.stringify(events)) as RunEvent[];

function medianMs(run: () => unknown, times = 5): number {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return samples.sort((x, y) => x - y)[Math.floor(times / 2)]!;
}

const CASES = {
  identical: {
    what: 'an identical pair',
    b: (steps: number) => longRun('b', steps, { startTs: 1_800_000_000_000 }),
  },
  inserted: {
    what: 'B inserts one step half-way',
    b: (steps: number) => withInsertedStep('b', steps, 1_800_000_000_000),
  },
  diverged: {
    what: 'B diverges at step 3, every later reply differs',
    b: (steps: number) => reworded('b', steps, 1_800_000_000_000),
  },
} as const;

/** Median time of diffRuns for one case; each pair is built, measured and let go alone. */
function timeCase(name: keyof typeof CASES, steps: number): { ms: number; differences: number } {
  const a = viaJson(longRun('a', steps));
  const b = viaJson(CASES[name].b(steps));
  diffRuns({ events: a }, { events: b }); // warm-up
  const ms = medianMs(() => diffRuns({ events: a }, { events: b }));
  return { ms, differences: diffRuns({ events: a }, { events: b }).differences };
}

function alignmentFigures(): Figure[] {
  return (Object.keys(CASES) as (keyof typeof CASES)[]).map((name) => {
    const small = timeCase(name, 1_000);
    const large = timeCase(name, 10_000);
    return {
      label: `align 10,000 steps: ${name}`,
      value: large.ms,
      unit: 'ms',
      note: `${CASES[name].what}; ${large.differences} differing rows; ${(large.ms / small.ms).toFixed(1)}× the 1,000-step ${small.ms.toFixed(0)} ms; target < 1000 ms`,
    };
  });
}

interface RenderMeasure {
  firstRowsMs: number;
  diffMs: number;
  /** the answer's arrival to painted rows: the UI's own part */
  uiMs: number;
  rows: number;
  longestScrollTaskMs: number;
  longScrollTasks: number;
  stalledFrames: number;
  scrollFrames: number;
  heapMb: number;
}

async function measureCompare(
  browser: Browser,
  url: string,
  a: string,
  b: string,
  maxScrollFrames = 20_000,
): Promise<RenderMeasure> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
  try {
    benchProgress('diff', `compare ${a} with ${b}: opening`);
    await page.goto(url);
    await page.locator('[data-app-state="ready"]').waitFor();
    await page.getByTestId('history-compare-toggle').click();
    await page.locator(`[data-testid="history-compare-check"][data-run-id="${a}"]`).check();
    await page.locator(`[data-testid="history-compare-check"][data-run-id="${b}"]`).check();
    const open = page.getByTestId('history-compare-open');
    const { started, painted } = await open.evaluate(
      (el) =>
        new Promise<{ started: number; painted: number }>((resolve) => {
          const w = globalThis as unknown as PageGlobals;
          const started = performance.now();
          const check = () => {
            const current = '[data-testid="compare-row"][aria-current="true"][data-loaded="true"]';
            if (w.document.querySelector(current)) {
              w.requestAnimationFrame(() => resolve({ started, painted: performance.now() }));
            } else w.requestAnimationFrame(check);
          };
          (el as unknown as { click(): void }).click();
          w.requestAnimationFrame(check);
        }),
    );
    const marks = await page.evaluate(() =>
      Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])),
    );
    const rows = Number(await page.getByTestId('compare-list').getAttribute('data-count'));

    benchProgress(
      'diff',
      `compare ${a} with ${b}: first rows in ${(painted - started).toFixed(0)} ms; scrolling`,
    );
    const list = page.getByTestId('compare-list');
    const scroll = await scrollUnderTrace(browser, page, list, maxScrollFrames, `compare-${a}`);
    return {
      firstRowsMs: painted - started,
      diffMs: (marks['wb:compare:response'] ?? NaN) - (marks['wb:compare:request'] ?? NaN),
      uiMs: painted - (marks['wb:compare:response'] ?? NaN),
      rows,
      longestScrollTaskMs: scroll.longestTaskMs,
      longScrollTasks: scroll.longTasks,
      stalledFrames: scroll.stalledFrames,
      scrollFrames: scroll.scrollFrames,
      heapMb: await heapAfterGc(page),
    };
  } finally {
    await page.close();
  }
}

const load = () => `load ${loadavg()[0]!.toFixed(1)}`;

/** Writes a run's history as the runtime does; `stored`: with its digests, as at its finish. */
function writeRun(dir: string, events: RunEvent[], stored: boolean): void {
  const log = join(dir, `${events[0]!.runId}.jsonl`);
  writeFileSync(log, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  if (!stored) return;
  const files = digestFilesOf(log);
  const digested = digestRun({ events });
  saveDigests(files, logStamp(files)!, headRun(digested), digested.steps);
}

/** The host's runs:diff in Node: from the two histories, then from their stored digests. */
function hostFigures(): Figure[] {
  const dir = mkdtempSync(join(tmpdir(), 'workbench-bench-compare-host-'));
  try {
    writeRun(dir, longRun('host-10k-a', 10_000, { startTs: 1_700_000_000_000 }), false);
    writeRun(dir, reworded('host-10k-b', 10_000, 1_700_000_100_000), false);
    const comparer = () => new RunComparer(new RunStore(dir, { onWarning: () => {} }));
    // each a new comparer (nothing in memory), as a new app process
    const timed = () => {
      const c = comparer();
      const started = performance.now();
      const diff = c.diff('host-10k-a', 'host-10k-b');
      const ms = performance.now() - started;
      return { ms, bytes: JSON.stringify(diff).length };
    };
    const before = timed(); // reads both histories, stores their digests
    const after = medianMs(() => comparer().diff('host-10k-a', 'host-10k-b'), 3);
    const answer = timed().bytes;
    const c = comparer();
    c.diff('host-10k-a', 'host-10k-b');
    const page = medianMs(() => c.steps('host-10k-b', 5_000, 5_064), 5);
    return [
      {
        label: 'host runs:diff 10,000 steps, from histories',
        value: before.ms,
        unit: 'ms',
        note: `baseline: reads and parses both logs (a history recorded before its digests; it stores them); ${load()}`,
      },
      {
        label: 'host runs:diff 10,000 steps, stored digests',
        value: after,
        unit: 'ms',
        note: `${(before.ms / after).toFixed(1)}× faster; answer ${(answer / 1e6).toFixed(2)} MB of JSON (steps by number); ${load()}`,
      },
      {
        label: 'host runs:steps, one page of 64 steps',
        value: page,
        unit: 'ms',
        note: `read from the stored digests' byte range; ${load()}`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function renderFigures(): Promise<Figure[]> {
  const home = mkdtempSync(join(tmpdir(), 'workbench-bench-compare-'));
  const dir = join(home, 'runs');
  mkdirSync(dir, { recursive: true });
  const now = Date.now();
  writeRun(dir, longRun('cmp-1k-a', 1_000, { startTs: now - 8 * 60_000 }), true);
  writeRun(dir, reworded('cmp-1k-b', 1_000, now - 7 * 60_000), true);
  // the same pair twice: histories from before stored digests, and runs that stored them
  writeRun(dir, longRun('cmp-10k-old-a', 10_000, { startTs: now - 6 * 60_000 }), false);
  writeRun(dir, reworded('cmp-10k-old-b', 10_000, now - 5 * 60_000), false);
  writeRun(dir, longRun('cmp-10k-a', 10_000, { startTs: now - 4 * 60_000 }), true);
  writeRun(dir, reworded('cmp-10k-b', 10_000, now - 3 * 60_000), true);
  const huge = process.env['WORKBENCH_BENCH_100K'] === '1';
  if (huge) {
    writeRun(dir, longRun('cmp-100k-a', 100_000, { startTs: now - 2 * 60_000 }), true);
    writeRun(dir, reworded('cmp-100k-b', 100_000, now - 60_000), true);
  }
  const { url, child } = await startServe(home);
  const browser = await launchBenchBrowser();
  try {
    await measureCompare(browser, url, 'cmp-1k-a', 'cmp-1k-b'); // warm-up: bundle compile
    const small = await measureCompare(browser, url, 'cmp-1k-a', 'cmp-1k-b');
    const oldLoad = load();
    const old = await measureCompare(browser, url, 'cmp-10k-old-a', 'cmp-10k-old-b');
    const largeLoad = load();
    const large = await measureCompare(browser, url, 'cmp-10k-a', 'cmp-10k-b');
    const figures: Figure[] = [
      {
        label: 'compare view first rows, 1,000 steps',
        value: small.firstRowsMs,
        unit: 'ms',
        note: `${small.rows.toLocaleString('en')} aligned rows (runs:diff ${small.diffMs.toFixed(0)} ms)`,
      },
      {
        label: 'compare view first rows, 10,000 steps, no digests',
        value: old.firstRowsMs,
        unit: 'ms',
        note: `baseline: histories recorded before digests were stored (runs:diff ${old.diffMs.toFixed(0)} ms reads both logs, then stores their digests); ${oldLoad}`,
      },
      {
        label: 'compare view first rows, 10,000 steps',
        value: large.firstRowsMs,
        unit: 'ms',
        note: `${large.rows.toLocaleString('en')} aligned rows; click on Compare to the current row painted with its contents; ${(old.firstRowsMs / large.firstRowsMs).toFixed(1)}× faster than without digests; target < 1000 ms; ${largeLoad}`,
      },
      {
        label: '  of which runs:diff, 10,000 steps',
        value: large.diffMs,
        unit: 'ms',
        note: "host reads both runs' stored heads, aligns, sends; the answer is parsed",
      },
      {
        label: '  of which UI, 10,000 steps',
        value: large.uiMs,
        unit: 'ms',
        note: `answer to painted rows, with the first runs:steps pages (1,000 steps: ${small.uiMs.toFixed(0)} ms)`,
      },
      {
        label: 'longest task scrolling, 10,000 steps',
        value: large.longestScrollTaskMs,
        unit: 'ms',
        note: `${large.scrollFrames} frames (${large.stalledFrames} from the stall timer), ${large.longScrollTasks} tasks > 50 ms; target ≤ 50 ms (1,000 steps: ${small.longestScrollTaskMs.toFixed(0)} ms); ${load()}`,
      },
      {
        label: 'renderer heap, 10,000 steps',
        value: large.heapMb,
        unit: 'MB',
        note: `after GC (1,000 steps: ${small.heapMb.toFixed(1)} MB)`,
      },
    ];
    if (huge) {
      const hugeLoad = load();
      const m = await measureCompare(browser, url, 'cmp-100k-a', 'cmp-100k-b', 3_000);
      figures.push({
        label: 'compare view first rows, 100,000 steps',
        value: m.firstRowsMs,
        unit: 'ms',
        note: `${m.rows.toLocaleString('en')} aligned rows (runs:diff ${m.diffMs.toFixed(0)} ms); target < 3000 ms; ${hugeLoad}`,
      });
    }
    return figures;
  } finally {
    await browser.close();
    child.kill('SIGTERM');
    rmSync(home, { recursive: true, force: true });
  }
}

export async function compareBench(): Promise<BenchResult> {
  // WORKBENCH_BENCH_DIFF_PARTS=host,view runs a part (the alignment takes minutes under load)
  const parts = (process.env['WORKBENCH_BENCH_DIFF_PARTS'] ?? 'align,host,view').split(',');
  const figures: Figure[] = [];
  if (parts.includes('align')) figures.push(...alignmentFigures());
  if (parts.includes('host')) figures.push(...hostFigures());
  if (parts.includes('view')) figures.push(...(await renderFigures()));
  return report(
    'compare runs: alignment (Node) and the compare view (Chromium, workbench serve)',
    figures,
  );
}
