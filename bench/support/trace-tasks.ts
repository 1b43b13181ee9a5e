/**
 * Reading Chromium traces for the UI benchmarks: the renderer main thread's longest task
 * (wall-clock and CPU), and keeping a trace for a person to open.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * With WORKBENCH_BENCH_TRACES=<dir>, the scroll traces are written there (open them in
 * Chrome's Performance panel to see what a long task did).
 */
export function keepTrace(trace: Buffer, name: string): void {
  const dir = process.env['WORKBENCH_BENCH_TRACES'];
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), trace);
}

/**
 * The trace categories of a measured phase. WORKBENCH_BENCH_TRACE_DETAIL=1 adds what a
 * person needs to see inside a long task (scripts, style, layout, paint, GC), at the cost
 * of tracing overhead in the figures, so it is off unless asked for.
 */
export function traceCategories(...extra: string[]): string[] {
  const detail =
    process.env['WORKBENCH_BENCH_TRACE_DETAIL'] === '1'
      ? ['devtools.timeline', 'v8', 'disabled-by-default-v8.gc', 'blink.user_timing']
      : [];
  return [...new Set(['toplevel', 'disabled-by-default-devtools.timeline', ...extra, ...detail])];
}

/**
 * Max duration of the renderer main thread's tasks in a Chromium trace, and the sums of
 * their wall and CPU (thread) time; with `afterMark`, only tasks that start after the
 * task holding that performance mark.
 */
export function longestTask(
  trace: Buffer,
  afterMark?: string,
): { maxMs: number; over50: number; maxCpuMs: number; wallMs: number; cpuMs: number } {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const mainThreads = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const isMain = (e: TraceEvent) => mainThreads.has(`${e.pid}:${e.tid}`);
  let from = -Infinity;
  if (afterMark) {
    const mark = events.find((e) => e.name === afterMark && isMain(e));
    const holder = mark
      ? events.find(
          (e) =>
            e.name === 'RunTask' &&
            e.ph === 'X' &&
            isMain(e) &&
            e.ts <= mark.ts &&
            e.ts + (e.dur ?? 0) >= mark.ts,
        )
      : undefined;
    from = holder ? holder.ts + (holder.dur ?? 0) : (mark?.ts ?? Infinity);
  }
  let maxMs = 0;
  let over50 = 0;
  // the thread's own CPU time: on 2 cores a task also waits while GC or raster threads run
  let maxCpuMs = 0;
  // all of them: the main thread's busy wall time and its own CPU time
  let wallMs = 0;
  let cpuMs = 0;
  for (const e of events) {
    if (e.name !== 'RunTask' || e.ph !== 'X' || !isMain(e) || e.ts < from) continue;
    const ms = (e.dur ?? 0) / 1000;
    if (ms > maxMs) maxMs = ms;
    if (ms > 50) over50++;
    maxCpuMs = Math.max(maxCpuMs, (e.tdur ?? 0) / 1000);
    wallMs += ms;
    cpuMs += (e.tdur ?? 0) / 1000;
  }
  return { maxMs, over50, maxCpuMs, wallMs, cpuMs };
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  /** microseconds */
  ts: number;
  dur?: number;
  /** thread (CPU) time, microseconds */
  tdur?: number;
  args?: { name?: string };
}
