import { useEffect, useState } from 'react';
import type { LiveWorkspaceView } from '@shared/ipc';
import { useBridge } from '../../store/StoreProvider';

/** how often the running step's files are listed again while the panel shows them */
export const LIVE_REFRESH_MS = 1500;

export interface LiveFilesState {
  view?: LiveWorkspaceView;
  error?: string;
}

/**
 * The running run's workspace now, listed again every LIVE_REFRESH_MS while `isOn` and
 * the page is visible; one request at a time (the next is asked for once the last one
 * answered), so a slow listing never piles up. Nothing of this is on the run's path: the
 * host reads the folder beside it.
 */
export function useLiveFiles(runId: string, isOn: boolean): LiveFilesState {
  const bridge = useBridge();
  const [state, setState] = useState<{ runId: string; value: LiveFilesState }>({
    runId,
    value: {},
  });
  useEffect(() => {
    if (!isOn) return;
    let isCurrent = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      if (document.visibilityState !== 'hidden') {
        try {
          const view = await bridge.files.getLiveFiles({ runId });
          if (isCurrent) setState({ runId, value: { view } });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          if (isCurrent) setState({ runId, value: { error: message } });
        }
      }
      if (isCurrent) timer = setTimeout(() => void tick(), LIVE_REFRESH_MS);
    };
    void tick();
    return () => {
      isCurrent = false;
      clearTimeout(timer);
    };
  }, [bridge, runId, isOn]);
  return isOn && state.runId === runId ? state.value : {};
}
