/**
 * The sandbox tools as `tools/list` describes them, without opening a run: a session that
 * names a run lists its tools before it calls one, and only the call decides which run it
 * records into (the gateway's run of its agent, once the agent made a model call). The
 * descriptions depend on `[sandbox]` alone (work dir, timeout, network), so tools made
 * with no sandbox manager describe exactly what a session's tools are; they never run.
 */
import type { SandboxSettings } from '../config/schema';
import type { Session } from '../session/session';
import { SandboxAccess } from '../tools/sandbox/sandbox-access';
import { createBashTool } from '../tools/sandbox/bash';
import { createPythonExecuteTool } from '../tools/sandbox/python-execute';
import { createStrReplaceEditorTool } from '../tools/sandbox/str-replace-editor';
import { createReadFileTool, createWriteFileTool } from '../tools/sandbox/file-tools';
import { toolSpec, type Tool } from '../tools/tool';
import type { SandboxToolDescription } from './sandbox-run';

export function sandboxToolDescriptions(settings: SandboxSettings): SandboxToolDescription[] {
  const access = new SandboxAccess({
    manager: undefined,
    // never read: an access without a manager fails before it looks at its session
    session: { id: 'describe-only' } as unknown as Session,
    settings,
    emit: () => undefined,
  });
  const tools: Tool[] = [
    createBashTool(access) as Tool,
    createPythonExecuteTool(access) as Tool,
    createStrReplaceEditorTool(access) as Tool,
    createReadFileTool(access) as Tool,
    createWriteFileTool(access) as Tool,
  ];
  return tools.map((tool) => {
    const spec = toolSpec(tool);
    return {
      name: spec.function.name,
      description: spec.function.description ?? '',
      inputSchema: (spec.function.parameters ?? { type: 'object' }) as Record<string, unknown>,
    };
  });
}
