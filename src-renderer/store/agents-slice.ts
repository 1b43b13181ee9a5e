/**
 * The Agents page's place in the store (issue 28 item 2): which agent the editor shows
 * (null: the list), and the agent New Run starts with after "Run" in the editor.
 */
import type { StateCreator } from 'zustand';
import type { WorkbenchState } from './store';

export interface AgentsSlice {
  /** the agent open in the editor; null shows the list */
  agentName: string | null;
  /** a user's agent (or a built-in one) New Run has chosen, from the editor's Run */
  newRunAgent: string | null;
  /** shows the Agents page: the list, or one agent in the editor */
  showAgents(name: string | null): void;
  /** opens New Run with this agent chosen */
  runWithAgent(name: string): void;
  /** New Run took the agent (its form owns the choice from now on) */
  takeNewRunAgent(): string | null;
}

export const createAgentsSlice: StateCreator<WorkbenchState, [], [], AgentsSlice> = (set, get) => ({
  agentName: null,
  newRunAgent: null,
  showAgents: (agentName) => set({ view: 'agents', agentName }),
  runWithAgent: (name) => set({ view: 'new', newRunAgent: name }),
  takeNewRunAgent: () => {
    const name = get().newRunAgent;
    if (name !== null) set({ newRunAgent: null });
    return name;
  },
});
