/** The agent state machine of OpenManus (schema.AgentState). */
export const AGENT_STATES = ['IDLE', 'RUNNING', 'FINISHED', 'ERROR'] as const;
export type AgentState = (typeof AGENT_STATES)[number];

/** How a run ended. `max_steps` is not an error: the budget ran out. */
export const RUN_OUTCOMES = ['finished', 'max_steps', 'error', 'cancelled'] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

/** Agents a user can pick for a run (DESIGN section 4 lists their defaults). */
export const AGENT_NAMES = ['manus', 'swe', 'browser', 'mcp', 'toolcall'] as const;
export type AgentName = (typeof AGENT_NAMES)[number];

export const FLOW_NAMES = ['planning'] as const;
export type FlowName = (typeof FLOW_NAMES)[number];

export interface TokenUsage {
  prompt: number;
  completion: number;
}

export function isAgentName(value: string): value is AgentName {
  return (AGENT_NAMES as readonly string[]).includes(value);
}

/** What running an agent or a flow ends with: the run's outcome and its step results. */
export interface RunResult {
  outcome: RunOutcome;
  state: AgentState;
  steps: number;
  usage: TokenUsage;
  terminateStatus?: string;
  error?: string;
  /** one line per step, as the original's joined step results */
  stepResults: string[];
}
