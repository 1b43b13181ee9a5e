/**
 * What an agent reference runs, checked before anything starts: a built-in agent by name,
 * or a user's agent or a definition file, loaded now (a bad one throws naming file and
 * line) and pinned to the version checked. Shared by `workbench batch --agent` and an
 * experiment's variants (docs/agents.md, docs/experiments.md).
 */
import { isAgentName, type AgentName } from '@shared/domain/agent';
import { parseAgentRef } from '@shared/domain/agent-definition';
import { isDefinitionPath } from '../agents/definitions/agent-store';
import { carrierAgent } from '../agents/definitions/tool-patterns';
import type { WorkbenchConfig } from '../config/schema';
import { resolveRunDefinition } from './run-definition';

export interface AgentChoice {
  /** the built-in agent, or the one whose needs a user's agent shares (its pre-flight) */
  agent: AgentName;
  /** a user's agent: its file, or `name@version` */
  agentRef?: string;
  /** how grids and reports name it: `name@version` */
  agentLabel?: string;
}

/** A built-in agent named with a version other than its only one. */
export class AgentChoiceError extends Error {}

export function resolveAgentChoice(
  ref: string,
  home: string,
  config: WorkbenchConfig,
): AgentChoice {
  const name = parseAgentRef(ref).name;
  if (isAgentName(name) && !isDefinitionPath(ref)) {
    if (ref !== name && ref !== `${name}@1`)
      throw new AgentChoiceError(`the built-in agent ${name} has one version: ${name}@1`);
    return { agent: name };
  }
  const definition = resolveRunDefinition(ref, home, config);
  const label = `${definition.data.name}@${definition.version}`;
  return {
    agent: carrierAgent(definition.patterns),
    agentRef: definition.source === 'file' ? definition.path! : label,
    agentLabel: label,
  };
}
