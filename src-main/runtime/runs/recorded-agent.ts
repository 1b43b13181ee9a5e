/**
 * The agent a recorded run starts again with (fork, resume, continue, "Run again"): its
 * flow, its built-in agent, or a user's agent at the version it ran (`NAME@V`, kept in
 * agents/.versions) with the built-in agent whose slot carries its profile. Undefined
 * for agents the workbench only recorded (src-shared/run-agent.ts says why).
 */
import { isAgentName } from '@shared/domain/agent';
import type { RunEvent } from '@shared/events';
import type { RunStartInput } from '@shared/ipc';

type RunStarted = Extract<RunEvent, { type: 'run.started' }>;

/** The built-in agent slot a user's agent's run takes its profile from (run-definition.ts). */
export const USER_AGENT_CARRIER = 'manus';

export function userAgentOf(
  started: RunStarted,
): Pick<RunStartInput, 'agent' | 'agentRef'> | undefined {
  const recorded = started.agentDefinition;
  if (!recorded || recorded.source === 'builtin' || recorded.version === undefined)
    return undefined;
  return {
    agent: USER_AGENT_CARRIER,
    agentRef: `${recorded.definition.name}@${recorded.version}`,
  };
}

export function recordedAgentOf(
  started: RunStarted,
): Pick<RunStartInput, 'agent' | 'agentRef' | 'flow'> | undefined {
  if (started.flow === 'planning') return { agent: 'manus', flow: 'planning' };
  const own = userAgentOf(started);
  if (own) return own;
  return isAgentName(started.agent) ? { agent: started.agent } : undefined;
}
