/**
 * Whether the workbench can start a run's agent again: "Run again", Resume, Continue and
 * fork all start the agent the run recorded. That is a built-in agent, a PlanningFlow, or
 * a user's agent whose definition version the run recorded (docs/agents.md). Runs recorded
 * from agents outside the workbench cannot be started here: the model gateway's
 * `external: NAME` runs, OpenTelemetry imports, and the sandbox MCP server's `sandbox`
 * sessions. The workbench only saw their calls; only their own program runs them again.
 */
import { isAgentName } from './domain/agent';
import type { RunSummary } from './domain/runs';

export type RunAgentFacts = Pick<RunSummary, 'agent' | 'flow' | 'agentVersion'>;

export function canStartAgentAgain(run: RunAgentFacts): boolean {
  return run.flow !== undefined || isAgentName(run.agent) || run.agentVersion !== undefined;
}

/** Why a run's agent cannot be started here, for a refusal (undefined when it can). */
export function whyAgentCannotStart(runId: string, run: RunAgentFacts): string | undefined {
  if (canStartAgentAgain(run)) return undefined;
  const how = run.agent.startsWith('external: ')
    ? 'it was recorded through the model gateway: run that agent again with its base URL on the gateway (`workbench gateway --replay RUN` replays it, `--fork RUN --at N` forks it)'
    : run.agent === 'sandbox'
      ? 'it records the tool calls of an MCP client of the sandbox server: call the server again from that client'
      : 'it was recorded by an agent outside the workbench (an OpenTelemetry import, or a user agent whose definition version was not recorded): run that agent again in its own program';
  return `Run ${runId} was made by "${run.agent}", which the workbench cannot start: ${how}.`;
}
