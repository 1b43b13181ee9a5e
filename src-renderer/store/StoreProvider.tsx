import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { AppApi } from '@shared/ipc';
import type { WorkbenchState, WorkbenchStore } from './store';

const StoreContext = createContext<WorkbenchStore | null>(null);
const ApiContext = createContext<AppApi | null>(null);

export function StoreProvider(props: { store: WorkbenchStore; api: AppApi; children: ReactNode }) {
  return (
    <StoreContext.Provider value={props.store}>
      <ApiContext.Provider value={props.api}>{props.children}</ApiContext.Provider>
    </StoreContext.Provider>
  );
}

/** Narrow selectors only: components re-render when their slice of state changes. */
export function useWorkbench<T>(selector: (state: WorkbenchState) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useWorkbench must be used inside <StoreProvider>');
  return useStore(store, selector);
}

export function useApi(): AppApi {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi must be used inside <StoreProvider>');
  return api;
}
