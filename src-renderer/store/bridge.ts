/**
 * The one place pushes become store actions: run events are applied in batches as they
 * arrive, and the run list is fetched once at start (a reload gets the snapshot, then
 * only events with a higher seq are applied).
 */
import type { AppApi } from '@shared/ipc';
import type { WorkbenchStore } from './store';

export function startBridge(
  api: AppApi & { onConnectionChange?: (l: (c: boolean) => void) => () => void },
  store: WorkbenchStore,
): () => void {
  const stops: (() => void)[] = [];
  stops.push(api.onRunEvents((batch) => store.getState().applyEvents(batch)));
  if (api.onConnectionChange)
    stops.push(api.onConnectionChange((c) => store.getState().setConnected(c)));
  api.listRuns({}).then(
    (summaries) => store.getState().setSummaries(summaries),
    (error: unknown) =>
      store.getState().setError(`Could not load the run history: ${(error as Error).message}`),
  );
  return () => {
    for (const stop of stops) stop();
  };
}
