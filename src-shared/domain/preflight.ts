/**
 * Pre-flight: what is checked before a run starts (docs/run-outcome.md): Docker, the
 * sandbox image, the model, the MCP server of the mcp agent, the chosen workspace.
 * Warnings are said before the run; errors refuse it and say what fixes them.
 */
import type { AgentName, FlowName } from './agent';
import type { WorkspaceChoice } from './runs';

export const PREFLIGHT_CHECK_IDS = [
  'config',
  'agent',
  'docker',
  'image',
  'model',
  'mcp',
  'browser',
  'workspace',
] as const;
export type PreflightCheckId = (typeof PREFLIGHT_CHECK_IDS)[number];

/** `info`: worth knowing (the demo model); `warn`: the run may go wrong; `error`: refused. */
export type PreflightStatus = 'ok' | 'info' | 'warn' | 'error';

export interface PreflightCheck {
  id: PreflightCheckId;
  status: PreflightStatus;
  message: string;
  /** what to do about it, for warnings and errors */
  fix?: string;
}

export interface PreflightInput {
  agent?: AgentName;
  flow?: FlowName;
  workspace?: WorkspaceChoice;
  /** the profile the run would use instead of the agent's own (`RunStartInput.profile`) */
  profile?: string;
  /** a user's agent (`RunStartInput.agentRef`): its definition is loaded and checked */
  agentRef?: string;
}

export interface PreflightReport {
  checks: PreflightCheck[];
  /** false when a check is an error: `run:start` refuses such a run */
  canStart: boolean;
}
