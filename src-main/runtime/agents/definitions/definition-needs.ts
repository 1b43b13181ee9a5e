/**
 * What a user's agent needs from the machine, read from the tools its definition picks:
 * the sandbox (required when it has nothing but sandbox tools, as swe; optional when it
 * has others too, as Manus), Chromium (the browser tool) and which MCP servers. The
 * pre-flight checks these before a run, and the agent's build uses the same sandbox need
 * for what a sandbox that cannot start does to the run, so the two never disagree.
 */
import type { BuiltinToolName } from '@shared/domain/agent-definition';
import type { SandboxToolName } from '../../tools/sandbox/sandbox-toolset';
import type { SandboxNeed } from '../../tools/sandbox/sandbox-outage';
import type { LoadedDefinition } from './load-definition';
import { builtinToolsOf, mcpServersOf } from './tool-patterns';

const SANDBOX_TOOLS: readonly string[] = ['python_execute', 'bash', 'str_replace_editor'];

export function isSandboxTool(
  name: BuiltinToolName,
): name is Extract<BuiltinToolName, SandboxToolName> {
  return SANDBOX_TOOLS.includes(name);
}

export interface DefinitionNeeds {
  sandbox: SandboxNeed | 'none';
  browser: boolean;
  /** the configured MCP servers its tool patterns pick from */
  mcpServers: string[];
}

export function definitionNeeds(
  loaded: Pick<LoadedDefinition, 'patterns'>,
  configuredServers: readonly string[],
): DefinitionNeeds {
  const builtins = builtinToolsOf(loaded.patterns);
  const onlySandbox = builtins.every((n) => isSandboxTool(n) || n === 'terminate');
  return {
    sandbox: !builtins.some(isSandboxTool) ? 'none' : onlySandbox ? 'required' : 'optional',
    browser: builtins.includes('browser'),
    mcpServers: mcpServersOf(loaded.patterns, configuredServers),
  };
}
