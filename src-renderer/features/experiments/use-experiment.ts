/**
 * One experiment's report, read from the main process (it is computed there from the
 * runs' histories) and read again whenever a `batch:progress` push says its batch moved,
 * at most one request in flight: the report fills in while the experiment runs.
 */
import { useEffect, useState } from 'react';
import type { ExperimentView } from '@shared/domain/experiments';
import type { ExperimentCommands } from '../../store/experiment-commands';
import { coalescedReload } from '../../lib/coalesced-reload';

export type ExperimentState =
  | { status: 'loading' }
  | { status: 'ready'; view: ExperimentView }
  | { status: 'error'; error: string };

export function useExperiment(commands: ExperimentCommands, experimentId: string): ExperimentState {
  const [loaded, setLoaded] = useState<{ id: string; state: ExperimentState } | null>(null);
  useEffect(() => {
    let isLive = true;
    let batchId: string | null = null;
    const set = (state: ExperimentState) => isLive && setLoaded({ id: experimentId, state });
    const load = coalescedReload(
      async () => {
        try {
          // marks for the report bench (bench/experiment-ui.bench.ts): request and answer
          performance.mark('wb:experiment:request');
          const view = await commands.getExperiment({ experimentId });
          performance.mark('wb:experiment:response');
          batchId = view.summary.batchId;
          set({ status: 'ready', view });
        } catch (error) {
          set({ status: 'error', error: (error as Error).message });
        }
      },
      () => isLive,
    );
    load();
    const stop = commands.onBatchProgress((progress) => {
      if (progress.batchId === batchId) load();
    });
    return () => {
      isLive = false;
      stop();
    };
  }, [commands, experimentId]);
  return loaded?.id === experimentId ? loaded.state : { status: 'loading' };
}
