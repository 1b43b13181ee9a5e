/**
 * Pure reducers that fold pushed RunEvents into the runs data. Batches are applied
 * incrementally (append only, one timeline update per run per batch), and an event
 * whose seq was already applied is skipped, so a snapshot followed by overlapping
 * pushes never duplicates anything.
 */
import type { RunEvent } from '@shared/events';
import type { RunSummary } from '@shared/ipc';
import { applyToSummary } from '@shared/run-summary';
import { shownSummary } from './shown-summary';
import { applyTimelineEvents } from './timeline/apply-events';
import { createTimeline } from './timeline/model';
import type { TimelineModel } from './timeline/types';

export type RunLoadStatus = 'none' | 'loading' | 'loaded' | 'error';

export interface RunData {
  /** what the header and the history row show: the history's, or `folded` (shown-summary.ts) */
  summary: RunSummary | undefined;
  /**
   * the summary folded from the events applied here, from their `run.started`; kept apart
   * from the history's, which counts every event already
   */
  folded: RunSummary | undefined;
  /** the first event folded in (a fork's `run.started` names its parent) */
  firstEvent: RunEvent | undefined;
  /**
   * how many events were folded in. The events themselves are not kept: the timeline
   * holds what the UI shows, and a copy of every event was a third of a long run's
   * heap (and an O(n) copy per batch while it loaded).
   */
  eventCount: number;
  lastSeq: number;
  timeline: TimelineModel;
  /** whether the run's history has been fetched (`runs:get`) */
  load: { status: RunLoadStatus; error?: string; warnings?: string[] };
}

export interface RunsData {
  runs: Record<string, RunData>;
  /** run ids, newest first */
  order: string[];
}

export const emptyRunsData: RunsData = { runs: {}, order: [] };

function emptyRun(summary?: RunSummary): RunData {
  return {
    summary,
    folded: undefined,
    firstEvent: undefined,
    eventCount: 0,
    lastSeq: 0,
    timeline: createTimeline(),
    load: { status: 'none' },
  };
}

export function applyEventBatch(data: RunsData, batch: readonly RunEvent[]): RunsData {
  if (batch.length === 0) return data;
  const byRun = new Map<string, RunEvent[]>();
  for (const event of batch) {
    const list = byRun.get(event.runId);
    if (list) list.push(event);
    else byRun.set(event.runId, [event]);
  }
  const runs = { ...data.runs };
  let order = data.order;
  for (const [runId, events] of byRun) {
    const existing = runs[runId];
    if (!existing) order = [runId, ...order];
    const run = existing ?? emptyRun();
    const fresh = events.filter(
      (e, i) => e.seq > run.lastSeq && (i === 0 || e.seq > events[i - 1]!.seq),
    );
    if (fresh.length === 0) continue;
    let folded = run.folded;
    for (const event of fresh) folded = applyToSummary(folded, event) ?? folded;
    const lastSeq = fresh[fresh.length - 1]!.seq;
    runs[runId] = {
      ...run,
      summary: shownSummary(run.summary, folded, lastSeq),
      folded,
      firstEvent: run.firstEvent ?? fresh[0],
      eventCount: run.eventCount + fresh.length,
      lastSeq,
      timeline: applyTimelineEvents(run.timeline, fresh),
    };
  }
  return { runs, order };
}

/**
 * Adds or refreshes summaries from `runs:list` / `runs:changed`. A run we follow live
 * keeps the summary its events produced (it is newer than any list).
 */
export function mergeSummaries(data: RunsData, summaries: readonly RunSummary[]): RunsData {
  const runs = { ...data.runs };
  const known = new Set(data.order);
  const added: string[] = [];
  for (const summary of summaries) {
    const existing = runs[summary.runId];
    if (existing && existing.eventCount > 0 && existing.summary) {
      // Interruption, import and the title are learnt from the history, not from events:
      // keep them.
      let kept = existing.summary;
      if (summary.isInterrupted && !kept.isInterrupted) kept = { ...kept, isInterrupted: true };
      if (summary.isImported && !kept.isImported) kept = { ...kept, isImported: true };
      if (summary.title !== kept.title) {
        const { title: _old, ...rest } = kept;
        kept = summary.title === undefined ? rest : { ...rest, title: summary.title };
      }
      if (kept !== existing.summary) runs[summary.runId] = { ...existing, summary: kept };
      continue;
    }
    runs[summary.runId] = existing ? { ...existing, summary } : emptyRun(summary);
    if (!known.has(summary.runId)) added.push(summary.runId);
  }
  if (added.length === 0 && summaries.length === 0) return data;
  const order = [...data.order, ...added].sort(
    (a, b) => (runs[b]?.summary?.startedAt ?? 0) - (runs[a]?.summary?.startedAt ?? 0),
  );
  return { runs, order };
}

export function setRunLoad(data: RunsData, runId: string, load: RunData['load']): RunsData {
  const run = data.runs[runId] ?? emptyRun();
  return {
    runs: { ...data.runs, [runId]: { ...run, load } },
    order: data.order.includes(runId) ? data.order : [runId, ...data.order],
  };
}

/** running, an outcome, or interrupted (the app stopped while it ran) */
export type RunStatus = 'running' | 'interrupted' | NonNullable<RunSummary['outcome']>;

export function runStatus(summary: RunSummary): RunStatus {
  if (summary.outcome) return summary.outcome;
  return summary.isInterrupted ? 'interrupted' : 'running';
}

/** Drops runs that left the history (deleted here or in another window). */
export function removeRuns(data: RunsData, runIds: readonly string[]): RunsData {
  const gone = new Set(runIds.filter((id) => id in data.runs));
  if (gone.size === 0) return data;
  const runs = { ...data.runs };
  for (const id of gone) delete runs[id];
  return { runs, order: data.order.filter((id) => !gone.has(id)) };
}
