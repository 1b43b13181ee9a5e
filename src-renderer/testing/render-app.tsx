import { act, render } from '@testing-library/react';
import { App } from '../app/App';
import { startBridge } from '../store/bridge';
import { createWorkbenchStore } from '../store/store';
import { StoreProvider } from '../store/StoreProvider';
import { resetUserActions } from '../store/user-actions';
import { useFilesView } from '../store/files-view';
import type { MemoryApi } from './memory-api';

/** Renders the whole app over an in-memory API and waits for its first requests. */
export async function renderApp(api: MemoryApi) {
  // the module-wide stores hold per-run data: a new app in a test starts without it
  resetUserActions();
  useFilesView.setState({ changeCounts: {}, isOpen: false, runId: null });
  const store = createWorkbenchStore();
  const bridge = startBridge(api, store);
  const view = render(
    <StoreProvider store={store} bridge={bridge}>
      <App />
    </StoreProvider>,
  );
  await act(async () => {
    await new Promise((r) => setTimeout(r, 0));
  });
  return { store, bridge, ...view };
}

export async function flush() {
  await act(async () => {
    await new Promise((r) => setTimeout(r, 0));
  });
}
