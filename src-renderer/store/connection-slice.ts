import type { StateCreator } from 'zustand';
import type { AppInfo } from '@shared/ipc';
import type { WorkbenchState } from './store';

export type AppState = 'loading' | 'ready';

export interface ConnectionSlice {
  /** `ready` once the run history has been asked for (answered or failed) */
  appState: AppState;
  appInfo: AppInfo | null;
  isConnected: boolean;
  /** the last app-wide error from the main process (errors of one action show at that action) */
  lastError: string | null;
  setAppState(appState: AppState): void;
  setAppInfo(appInfo: AppInfo): void;
  setConnected(isConnected: boolean): void;
  setError(message: string | null): void;
}

export const createConnectionSlice: StateCreator<WorkbenchState, [], [], ConnectionSlice> = (
  set,
) => ({
  appState: 'loading',
  appInfo: null,
  isConnected: true,
  lastError: null,
  setAppState: (appState) => set({ appState }),
  setAppInfo: (appInfo) => set({ appInfo }),
  setConnected: (isConnected) => set({ isConnected }),
  setError: (lastError) => set({ lastError }),
});
