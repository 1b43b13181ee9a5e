/**
 * The grid of one batch, read from the main process and read again whenever a
 * `batch:progress` push says this batch changed (a run started or ended), at most one
 * request in flight: the grid fills live while the batch runs.
 */
import { useEffect, useState } from 'react';
import type { BatchGrid } from '@shared/ipc';
import type { BatchCommands } from '../../store/batch-commands';
import { coalescedReload } from '../../lib/coalesced-reload';

export type GridState =
  { status: 'loading' } | { status: 'ready'; grid: BatchGrid } | { status: 'error'; error: string };

export function useBatchGrid(commands: BatchCommands, batchId: string): GridState {
  // Keyed by batch: another batch's grid is never shown while this one loads.
  const [loaded, setLoaded] = useState<{ batchId: string; state: GridState } | null>(null);
  const setState = (state: GridState) => setLoaded({ batchId, state });
  useEffect(() => {
    let isLive = true;
    const load = coalescedReload(
      async () => {
        try {
          const grid = await commands.grid(batchId);
          if (isLive) setState({ status: 'ready', grid });
        } catch (error) {
          if (isLive) setState({ status: 'error', error: (error as Error).message });
        }
      },
      () => isLive,
    );
    load();
    const stop = commands.onProgress((progress) => {
      if (progress.batchId === batchId) load();
    });
    return () => {
      isLive = false;
      stop();
    };
    // setState only sets state: it need not be a dependency
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [commands, batchId]);
  return loaded?.batchId === batchId ? loaded.state : { status: 'loading' };
}
