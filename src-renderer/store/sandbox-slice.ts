import type { StateCreator } from 'zustand';
import type { SandboxStatusView } from '@shared/ipc';
import type { WorkbenchState } from './store';

export interface SandboxSlice {
  sandbox: SandboxStatusView | null;
  sandboxError: string | null;
  setSandbox(sandbox: SandboxStatusView): void;
  setSandboxError(message: string | null): void;
}

export const createSandboxSlice: StateCreator<WorkbenchState, [], [], SandboxSlice> = (set) => ({
  sandbox: null,
  sandboxError: null,
  setSandbox: (sandbox) => set({ sandbox, sandboxError: null }),
  setSandboxError: (sandboxError) => set({ sandboxError }),
});
