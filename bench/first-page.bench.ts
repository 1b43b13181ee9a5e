/**
 * The host's first page of a long run (issue 27: "the first page of a run is read by the
 * host from the whole log"): `RunStore.readPage` for the UI's first page (1,000 events)
 * and then every page in order (2,500 each, as src-renderer/store/bridge.ts asks), on
 * 10,000- and 100,000-step histories written to disk.
 *
 * Baseline in the same run: the previous implementation, kept here for the comparison:
 * the whole log read as text and split into lines once, each page parsed from the split
 * lines (`parseRunLogPage`, what `readPage` did before log-file-pager.ts).
 * WORKBENCH_BENCH_FIRST_PAGE_STEPS sets the long run (default 100,000 steps).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLogPage, type LogCursor } from '../src-main/runtime/runs/log-file-pager';
import { parseRunLogPage, splitLog, type ParsedPage } from '../src-main/runtime/runs/run-log';
import { longRunInChunks } from '../src-renderer/testing/run-script';
import { report, type BenchResult, type Figure } from './report';

const FIRST_PAGE = 1_000;
const NEXT_PAGE = 2_500;

function writeLog(dir: string, steps: number): { path: string; bytes: number; events: number } {
  const runId = `bench-${steps}`;
  const lines: string[] = [];
  longRunInChunks(runId, steps, {}, (events) => {
    for (const event of events) lines.push(JSON.stringify(event));
  });
  const text = `${lines.join('\n')}\n`;
  const path = join(dir, `${runId}.jsonl`);
  writeFileSync(path, text);
  return { path, bytes: Buffer.byteLength(text), events: lines.length };
}

function timed<T>(work: () => T): { ms: number; value: T } {
  const start = performance.now();
  const value = work();
  return { ms: performance.now() - start, value };
}

/** The previous readPage: the whole text split once, pages parsed from it. */
function previousPages(path: string, runId: string, all: boolean) {
  const first = timed(() => {
    const log = splitLog(readFileSync(path, 'utf8'));
    return { log, page: parseRunLogPage(log, runId, path, { afterSeq: 0, limit: FIRST_PAGE }) };
  });
  if (!all) return { firstMs: first.ms, allMs: first.ms, events: first.value.page.events.length };
  const rest = timed(() => {
    let page: ParsedPage = first.value.page;
    let events = page.events.length;
    while (page.hasMore) {
      const afterSeq = page.events.at(-1)!.seq;
      page = parseRunLogPage(first.value.log, runId, path, {
        afterSeq,
        limit: NEXT_PAGE,
        startLine: page.nextLine,
      });
      events += page.events.length;
    }
    return events;
  });
  return { firstMs: first.ms, allMs: first.ms + rest.ms, events: rest.value };
}

function filePages(path: string, runId: string) {
  const first = timed(() => readLogPage(path, runId, path, { afterSeq: 0, limit: FIRST_PAGE })!);
  const rest = timed(() => {
    let { page, cursor } = first.value;
    let events = page.events.length;
    while (page.hasMore) {
      const afterSeq = page.events.at(-1)!.seq;
      ({ page, cursor } = readLogPage(
        path,
        runId,
        path,
        { afterSeq, limit: NEXT_PAGE },
        cursor as LogCursor,
      )!);
      events += page.events.length;
    }
    return events;
  });
  return { firstMs: first.ms, allMs: first.ms + rest.ms, events: rest.value };
}

export async function firstPageBench(): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'wb-bench-first-page-'));
  const long = Number(process.env.WORKBENCH_BENCH_FIRST_PAGE_STEPS ?? 100_000);
  const figures: Figure[] = [];
  const loadBefore = loadavg()[0]!.toFixed(1);
  try {
    for (const steps of [10_000, long]) {
      const log = writeLog(dir, steps);
      const runId = `bench-${steps}`;
      const mb = (log.bytes / (1 << 20)).toFixed(0);
      // best of 3 for the first page, each path alternated; one pass for all pages
      let before = Infinity;
      let after = Infinity;
      for (let i = 0; i < 3; i++) {
        before = Math.min(before, previousPages(log.path, runId, false).firstMs);
        after = Math.min(after, filePages(log.path, runId).firstMs);
      }
      const allBefore = previousPages(log.path, runId, true);
      const allAfter = filePages(log.path, runId);
      if (allBefore.events !== log.events || allAfter.events !== log.events) {
        throw new Error(`pages gave ${allBefore.events}/${allAfter.events} of ${log.events}`);
      }
      figures.push(
        {
          label: `${steps} steps (${mb} MB): first page, whole log split (before)`,
          value: before,
          unit: 'ms',
        },
        {
          label: `${steps} steps: first page, its bytes only (after)`,
          value: after,
          unit: 'ms',
          note: `${(before / after).toFixed(0)}× faster`,
        },
        {
          label: `${steps} steps: all ${log.events} events in pages, before / after`,
          value: allAfter.allMs,
          unit: 'ms',
          note: `before ${allBefore.allMs.toFixed(0)} ms`,
        },
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return report(
    `first page of a long run's history (load ${loadBefore} → ${loadavg()[0]!.toFixed(1)})`,
    figures,
  );
}
