/** One Zustand store made of slices (DESIGN section 6). */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { createConnectionSlice, type ConnectionSlice } from './connection-slice';
import { createRunsSlice, type RunsSlice } from './runs-slice';

export type WorkbenchState = RunsSlice & ConnectionSlice;
export type WorkbenchStore = StoreApi<WorkbenchState>;

export function createWorkbenchStore(): WorkbenchStore {
  return createStore<WorkbenchState>()((...a) => ({
    ...createRunsSlice(...a),
    ...createConnectionSlice(...a),
  }));
}
