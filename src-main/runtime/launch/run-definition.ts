/**
 * A run of a user's agent (docs/agents.md): its definition resolved from the run's
 * `agentRef`, its run settings (the definition's `[run]` over `[agent]` over the
 * defaults: `[agent.NAME]` of a built-in agent never applies to a user's agent) and its
 * profile (the run's own choice, else the definition's, else `[agent] llm`, else `[llm]`).
 */
import type { AgentName } from '@shared/domain/agent';
import {
  AGENT_DEFAULTS,
  ALL_AGENTS,
  type AgentRunSettings,
  type WorkbenchConfig,
} from '../config/schema';
import { runSettingsOf } from '../config/resolve';
import { resolveDefinition, type ResolvedDefinition } from '../agents/definitions/agent-store';
import type { AgentDefinitionData } from '@shared/domain/agent-definition';
import type { DefinitionContext } from '../agents/definitions/load-definition';
import { withRunProfile } from './run-profile';

export function definitionContext(config: WorkbenchConfig): DefinitionContext {
  return {
    mcpServers: Object.keys(config.mcp.servers),
    profiles: Object.keys(config.llm.profiles),
  };
}

export function resolveRunDefinition(
  ref: string,
  home: string,
  config: WorkbenchConfig,
): ResolvedDefinition {
  return resolveDefinition(ref, home, definitionContext(config));
}

export function definitionSettings(
  config: WorkbenchConfig,
  data: AgentDefinitionData,
): AgentRunSettings {
  const { llm: _llm, ...all } = config.agent[ALL_AGENTS] ?? {};
  return runSettingsOf({ ...AGENT_DEFAULTS.manus, ...all, ...data.run });
}

/**
 * The config the run reads its model from: the run's agent slot (`carrier`, the agent
 * the run manager resolves profiles for) set to the definition's profile.
 */
export function configForDefinition(
  config: WorkbenchConfig,
  carrier: AgentName,
  data: AgentDefinitionData,
  runProfile: string | undefined,
): WorkbenchConfig {
  const profile = runProfile ?? data.profile ?? config.agent[ALL_AGENTS]?.llm ?? 'default';
  return withRunProfile(config, carrier, profile);
}
