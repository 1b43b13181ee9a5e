/**
 * Commands for what a run needs besides the model profiles: pre-flight, the folder
 * picker, the sandbox images, saving [sandbox]/[browser]/[mcp], testing an MCP
 * server, and the edits of model profiles (create, rename, delete, assign). A save lands in the store like every config change.
 */
import type {
  AppApi,
  McpServerInput,
  McpServerPrompts,
  McpTestResult,
  PreflightInput,
  PreflightReport,
  ProfileEdit,
  SandboxImagesView,
  SectionsSaveInput,
} from '@shared/ipc';
import type { WorkbenchStore } from './store';

export interface SettingsCommands {
  preflight(input: PreflightInput): Promise<PreflightReport>;
  /** the desktop folder dialog; null when cancelled */
  pickFolder(): Promise<string | null>;
  listSandboxImages(): Promise<SandboxImagesView>;
  /** saves and puts the new config in the store; throws AppApiError (with issues) */
  saveSections(input: SectionsSaveInput): Promise<void>;
  testMcpServer(name: string, server: McpServerInput): Promise<McpTestResult>;
  /** one configured server's prompts (connecting to it when needed), or why not */
  listMcpPrompts(server: string): Promise<McpServerPrompts>;
  /** creates, duplicates, renames, deletes or assigns a profile; throws AppApiError */
  editProfile(edit: ProfileEdit): Promise<void>;
}

export function createSettingsCommands(api: AppApi, store: WorkbenchStore): SettingsCommands {
  return {
    preflight: (input) => api.preflightRun(input),
    pickFolder: async () => (await api.pickFolder({})).path,
    listSandboxImages: () => api.listSandboxImages({}),
    async saveSections(input) {
      store.getState().setConfig(await api.saveConfigSections(input));
    },
    testMcpServer: (name, server) => api.testMcpServer({ name, server }),
    async listMcpPrompts(server) {
      const [listed] = await api.listMcpPrompts({ server });
      return listed ?? { server, prompts: [], error: 'The host listed nothing for this server' };
    },
    async editProfile(edit) {
      store.getState().setConfig(await api.editProfile(edit));
    },
  };
}
