/**
 * Which summary a run's header and history row show while its events are folded in.
 *
 * Two summaries of a run meet in the store: the history's (`runs:list`, `runs:get`,
 * `runs:changed`), which the host folded from every event up to its `lastSeq`, and the
 * one folded here from the events applied so far. They must never be mixed: events
 * folded on top of the history's summary are counted twice. That was issue 25 item 2: a
 * finished run loading page by page kept the history's summary after its first page and
 * folded every later page into it, so a 5,000-step run's header showed about twice the
 * stuck detections, duplicates, tool errors and retries that `runs list` counted.
 *
 * The history's summary is shown while it counts further than the fold (else a finished
 * run would read "running", with counts climbing, until its last page is in); from then
 * on the fold is shown, and it goes on with every push of a live run.
 */
import type { RunSummary } from '@shared/ipc';

export function shownSummary(
  known: RunSummary | undefined,
  folded: RunSummary | undefined,
  foldedSeq: number,
): RunSummary | undefined {
  if (!folded) return known;
  if (known && countsFurther(known, folded, foldedSeq)) return known;
  return withHistoryFacts({ ...folded, lastSeq: foldedSeq }, known);
}

function countsFurther(known: RunSummary, folded: RunSummary, foldedSeq: number): boolean {
  if (known.lastSeq !== undefined) return known.lastSeq > foldedSeq;
  // A summary from before `lastSeq` existed: a finished one holds the whole run.
  return known.outcome !== undefined && folded.outcome === undefined;
}

/** What only the history knows, since no event says it: the title, interrupted, imported. */
function withHistoryFacts(summary: RunSummary, known: RunSummary | undefined): RunSummary {
  if (!known) return summary;
  return {
    ...summary,
    ...(known.title !== undefined ? { title: known.title } : {}),
    ...(known.isInterrupted ? { isInterrupted: true } : {}),
    ...(known.isImported ? { isImported: true } : {}),
    ...(known.historyIncomplete !== undefined
      ? { historyIncomplete: known.historyIncomplete }
      : {}),
  };
}
