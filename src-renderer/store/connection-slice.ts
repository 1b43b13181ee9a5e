import type { StateCreator } from 'zustand';
import type { WorkbenchState } from './store';

export interface ConnectionSlice {
  isConnected: boolean;
  /** the last error from the main process, shown where it happened */
  lastError: string | null;
  setConnected(isConnected: boolean): void;
  setError(message: string | null): void;
}

export const createConnectionSlice: StateCreator<WorkbenchState, [], [], ConnectionSlice> = (
  set,
) => ({
  isConnected: true,
  lastError: null,
  setConnected: (isConnected) => set({ isConnected }),
  setError: (lastError) => set({ lastError }),
});
