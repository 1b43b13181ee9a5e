/** One Zustand store made of slices (DESIGN section 6). */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { createCompareSlice, type CompareSlice } from './compare-slice';
import { createConfigSlice, type ConfigSlice } from './config-slice';
import { createConnectionSlice, type ConnectionSlice } from './connection-slice';
import { createRunsSlice, type RunsSlice } from './runs-slice';
import { createSandboxSlice, type SandboxSlice } from './sandbox-slice';
import { createUiSlice, type UiSlice } from './ui-slice';
import { createPlaygroundSlice, type PlaygroundSlice } from './playground-slice';
import { createAgentsSlice, type AgentsSlice } from './agents-slice';

export type WorkbenchState = RunsSlice &
  ConnectionSlice &
  UiSlice &
  ConfigSlice &
  SandboxSlice &
  CompareSlice &
  PlaygroundSlice &
  AgentsSlice;
export type WorkbenchStore = StoreApi<WorkbenchState>;

export function createWorkbenchStore(): WorkbenchStore {
  return createStore<WorkbenchState>()((...a) => ({
    ...createRunsSlice(...a),
    ...createConnectionSlice(...a),
    ...createUiSlice(...a),
    ...createConfigSlice(...a),
    ...createSandboxSlice(...a),
    ...createCompareSlice(...a),
    ...createPlaygroundSlice(...a),
    ...createAgentsSlice(...a),
  }));
}
