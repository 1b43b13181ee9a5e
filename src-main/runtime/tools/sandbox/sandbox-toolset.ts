/**
 * The sandbox tools for one agent instance: each agent gets its own tools (its own shell,
 * its own undo history) over the session's shared container, and `sandbox.changed`
 * events in its run while the run lasts. Takes only what it uses, so the tools layer
 * never needs to know how agents are built.
 */
import type { RunEventPayload } from '@shared/events';
import type { WorkbenchConfig } from '../../config/schema';
import type { SandboxManager } from '../../sandbox/sandbox-manager';
import type { Session } from '../../session/session';
import { createBashTool } from './bash';
import { createPythonExecuteTool } from './python-execute';
import { createStrReplaceEditorTool } from './str-replace-editor';
import { createReadFileTool, createWriteFileTool } from './file-tools';
import type { Tool } from '../tool';
import { SandboxAccess } from './sandbox-access';
import type { SandboxNeed } from './sandbox-outage';

export type SandboxToolName =
  | 'bash'
  | 'python_execute'
  | 'str_replace_editor'
  // plain file access for the sandbox MCP server's clients (file-tools.ts)
  | 'read_file'
  | 'write_file';

export interface SandboxToolset {
  tools: Tool[];
  /** stops forwarding sandbox events; call after the tools are disposed */
  dispose(): Promise<void>;
}

/** What the toolset needs from the agent being built (an AgentBuildInput satisfies it). */
export interface SandboxToolsetInput {
  services: { sandboxes: SandboxManager };
  session: Session;
  config: Pick<WorkbenchConfig, 'sandbox'>;
  env: { emit(event: RunEventPayload): void };
}

export function sandboxToolset(
  input: SandboxToolsetInput,
  names: SandboxToolName[],
  options: {
    prewarm?: boolean;
    /** what a sandbox that cannot start does to the run (sandbox-outage.ts); default optional */
    need?: SandboxNeed;
  } = {},
): SandboxToolset {
  const access = new SandboxAccess({
    manager: input.services.sandboxes,
    session: input.session,
    settings: input.config.sandbox,
    emit: input.env.emit,
    toolNames: names,
    ...(options.need ? { need: options.need } : {}),
  });
  const factories: Record<SandboxToolName, () => Tool> = {
    bash: () => createBashTool(access) as Tool,
    python_execute: () => createPythonExecuteTool(access) as Tool,
    str_replace_editor: () => createStrReplaceEditorTool(access) as Tool,
    read_file: () => createReadFileTool(access) as Tool,
    write_file: () => createWriteFileTool(access) as Tool,
  };
  const tools = names.map((name) => factories[name]());
  if (options.prewarm) access.prewarm();
  return {
    tools,
    dispose: async () => access.dispose(),
  };
}
