import type { StateCreator } from 'zustand';
import type { AppInfo } from '@shared/ipc';
import type { ConnectionEnd } from '../api/ws-api';
import type { WorkbenchState } from './store';

export type AppState = 'loading' | 'ready';

export interface ConnectionSlice {
  /** `ready` once the run history has been asked for (answered or failed) */
  appState: AppState;
  appInfo: AppInfo | null;
  isConnected: boolean;
  /**
   * browser mode: the page stopped reconnecting, and why (a restarted server's new token,
   * or no answer through every retry); null while it is connected or still retrying
   */
  connectionEnd: ConnectionEnd | null;
  /** the last app-wide error from the main process (errors of one action show at that action) */
  lastError: string | null;
  setAppState(appState: AppState): void;
  setAppInfo(appInfo: AppInfo): void;
  setConnected(isConnected: boolean): void;
  setConnectionEnded(end: ConnectionEnd): void;
  setError(message: string | null): void;
}

export const createConnectionSlice: StateCreator<WorkbenchState, [], [], ConnectionSlice> = (
  set,
) => ({
  appState: 'loading',
  appInfo: null,
  isConnected: true,
  connectionEnd: null,
  lastError: null,
  setAppState: (appState) => set({ appState }),
  setAppInfo: (appInfo) => set({ appInfo }),
  setConnected: (isConnected) =>
    set(isConnected ? { isConnected, connectionEnd: null } : { isConnected }),
  setConnectionEnded: (connectionEnd) => set({ isConnected: false, connectionEnd }),
  setError: (lastError) => set({ lastError }),
});
