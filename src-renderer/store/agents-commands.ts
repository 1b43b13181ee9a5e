/** The Agents page's requests, as the bridge hands them to the page (docs/agents.md). */
import type { AppApi } from '@shared/ipc';
import type { AGENTS_API_METHODS } from '@shared/agents-contract';

export type AgentsCommands = Pick<AppApi, keyof typeof AGENTS_API_METHODS>;

export function createAgentsCommands(api: AppApi): AgentsCommands {
  return {
    listAgents: (input) => api.listAgents(input),
    getAgent: (input) => api.getAgent(input),
    listAgentTools: (input) => api.listAgentTools(input),
    validateAgent: (input) => api.validateAgent(input),
    saveAgent: (input) => api.saveAgent(input),
    createAgent: (input) => api.createAgent(input),
    renameAgent: (input) => api.renameAgent(input),
    deleteAgent: (input) => api.deleteAgent(input),
    importAgent: (input) => api.importAgent(input),
    exportAgent: (input) => api.exportAgent(input),
  };
}
