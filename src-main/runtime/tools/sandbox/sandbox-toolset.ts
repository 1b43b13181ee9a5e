/**
 * The sandbox tools for one agent instance, for the agent catalog: each agent gets its
 * own tools (its own shell, its own undo history) over the session's shared container,
 * and `sandbox.changed` events in its run while the run lasts.
 */
import type { AgentBuildInput } from '../../agents/catalog';
import { createBashTool } from '../bash';
import { createPythonExecuteTool } from '../python-execute';
import { createStrReplaceEditorTool } from '../str-replace-editor';
import type { Tool } from '../tool';
import { SandboxAccess } from './sandbox-access';

export type SandboxToolName = 'bash' | 'python_execute' | 'str_replace_editor';

export interface SandboxToolset {
  tools: Tool[];
  /** stops forwarding sandbox events; call after the tools are disposed */
  dispose(): Promise<void>;
}

export function sandboxToolset(
  input: Pick<AgentBuildInput, 'services' | 'session' | 'config' | 'env'>,
  names: SandboxToolName[],
  options: { prewarm?: boolean } = {},
): SandboxToolset {
  const access = new SandboxAccess({
    manager: input.services.sandboxes,
    session: input.session,
    settings: input.config.sandbox,
    emit: input.env.emit,
  });
  const factories: Record<SandboxToolName, () => Tool> = {
    bash: () => createBashTool(access) as Tool,
    python_execute: () => createPythonExecuteTool(access) as Tool,
    str_replace_editor: () => createStrReplaceEditorTool(access) as Tool,
  };
  const tools = names.map((name) => factories[name]());
  if (options.prewarm) access.prewarm();
  return {
    tools,
    dispose: async () => access.dispose(),
  };
}
