/**
 * Which runs are "of agent NAME" (docs/agents.md): `NAME` any version of it, `NAME@3`
 * only the runs of its version 3 (`RunSummary.agentVersion`). Shared by
 * `workbench runs list --agent` and the history's agent and version filters.
 */
import { parseAgentRef } from './domain/agent-definition';
import type { RunSummary } from './domain/runs';

export function runMatchesAgent(
  run: Pick<RunSummary, 'agent' | 'agentVersion'>,
  wanted: string,
): boolean {
  if (run.agent === wanted) return true;
  const { name, version } = parseAgentRef(wanted);
  return run.agent === name && version !== undefined && run.agentVersion === version;
}

/** The versions of each agent the runs used, ascending (runs of no version left out). */
export function agentVersionsOf(
  runs: Iterable<Pick<RunSummary, 'agent' | 'agentVersion'>>,
): Map<string, number[]> {
  const versions = new Map<string, Set<number>>();
  for (const run of runs) {
    if (run.agentVersion === undefined) continue;
    const set = versions.get(run.agent) ?? new Set<number>();
    set.add(run.agentVersion);
    versions.set(run.agent, set);
  }
  return new Map([...versions].map(([agent, set]) => [agent, [...set].sort((a, b) => a - b)]));
}
