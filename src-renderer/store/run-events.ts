/**
 * Pure reducers that fold pushed RunEvents into the runs data. Batches are applied
 * incrementally (append only), and an event whose seq was already applied is skipped,
 * so a snapshot followed by overlapping pushes never duplicates anything.
 */
import type { RunEvent } from '@shared/events';
import type { RunSummary } from '@shared/ipc';
import { applyToSummary } from '@shared/run-summary';

export interface RunData {
  summary: RunSummary | undefined;
  events: RunEvent[];
  lastSeq: number;
}

export interface RunsData {
  runs: Record<string, RunData>;
  /** run ids, newest first */
  order: string[];
}

export const emptyRunsData: RunsData = { runs: {}, order: [] };

export function applyEventBatch(data: RunsData, batch: readonly RunEvent[]): RunsData {
  if (batch.length === 0) return data;
  const runs = { ...data.runs };
  let order = data.order;
  const touched = new Map<string, RunData>();
  for (const event of batch) {
    let run = touched.get(event.runId);
    if (!run) {
      const existing = runs[event.runId];
      // Copy once per batch; events arrays are appended in place on the copy.
      run = existing
        ? { summary: existing.summary, events: existing.events.slice(), lastSeq: existing.lastSeq }
        : { summary: undefined, events: [], lastSeq: 0 };
      if (!existing) order = [event.runId, ...order];
      touched.set(event.runId, run);
    }
    if (event.seq <= run.lastSeq) continue;
    run.events.push(event);
    run.lastSeq = event.seq;
    run.summary = applyToSummary(run.summary, event);
  }
  for (const [runId, run] of touched) runs[runId] = run;
  return { runs, order };
}

/** Adds summaries from `runs:list` without touching runs we already follow live. */
export function mergeSummaries(data: RunsData, summaries: readonly RunSummary[]): RunsData {
  const runs = { ...data.runs };
  const known = new Set(data.order);
  const added: string[] = [];
  for (const summary of summaries) {
    const existing = runs[summary.runId];
    if (existing && existing.events.length > 0) continue;
    runs[summary.runId] = {
      summary,
      events: existing?.events ?? [],
      lastSeq: existing?.lastSeq ?? 0,
    };
    if (!known.has(summary.runId)) added.push(summary.runId);
  }
  const order = [...data.order, ...added].sort(
    (a, b) => (runs[b]?.summary?.startedAt ?? 0) - (runs[a]?.summary?.startedAt ?? 0),
  );
  return { runs, order };
}
