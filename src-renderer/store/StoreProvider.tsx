import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { Bridge } from './bridge';
import type { WorkbenchState, WorkbenchStore } from './store';

const StoreContext = createContext<WorkbenchStore | null>(null);
const BridgeContext = createContext<Bridge | null>(null);

export function StoreProvider(props: {
  store: WorkbenchStore;
  bridge: Bridge;
  children: ReactNode;
}) {
  return (
    <StoreContext.Provider value={props.store}>
      <BridgeContext.Provider value={props.bridge}>{props.children}</BridgeContext.Provider>
    </StoreContext.Provider>
  );
}

/** Narrow selectors only: components re-render when their slice of state changes. */
export function useWorkbench<T>(selector: (state: WorkbenchState) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useWorkbench must be used inside <StoreProvider>');
  return useStore(store, selector);
}

/** The store itself, for event handlers that read state without subscribing to it. */
export function useWorkbenchStore(): WorkbenchStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useWorkbenchStore must be used inside <StoreProvider>');
  return store;
}

/** Commands (start, stop, save...) that talk to the main process. */
export function useBridge(): Bridge {
  const bridge = useContext(BridgeContext);
  if (!bridge) throw new Error('useBridge must be used inside <StoreProvider>');
  return bridge;
}
