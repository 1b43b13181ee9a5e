/**
 * The planner of a PlanningFlow run as a user agent (`[flow.planning] planner = "NAME"` or
 * `"NAME@V"`, docs/agents.md "In a PlanningFlow"): its definition's system prompt, rendered
 * with the user-agent template variables, replaces the flow's fixed planning prompt, and its
 * profile (when it names one) replaces the `planning` profile. The planner keeps only the
 * `planning` tool and the flow's `[agent.planning]` settings (its step limit is the run's
 * budget): a definition's tools, next-step prompt and `[run]` do not apply to it. A name
 * that is no user agent, or a definition that does not load, is a config error naming the
 * key and the agents that exist, before anything of the run starts.
 */
import { isAgentName } from '@shared/domain/agent';
import { parseAgentRef } from '@shared/domain/agent-definition';
import type { ResolvedDefinition } from '../agents/definitions/agent-store';
import { AgentDefinitionError } from '../agents/definitions/load-definition';
import { dateValue, renderTemplate, toolListValue } from '../agents/definitions/template';
import { ConfigError } from '../config/load';
import type { WorkbenchConfig } from '../config/schema';
import { PLANNER_AGENT } from '../flow/planner';
import { existing, userAgentNames } from './flow-executors';
import { resolveRunDefinition } from './run-definition';

export interface FlowPlanner {
  /** as `[flow.planning] planner` names it */
  ref: string;
  definition: ResolvedDefinition;
}

const KEY = '[flow.planning] planner';

/** The planner `config` names, resolved; undefined for the flow's own planning prompt. */
export function resolveFlowPlanner(
  config: WorkbenchConfig,
  home: string,
  configFile: string,
): FlowPlanner | undefined {
  const ref = config.flow.planning.planner;
  if (ref === undefined) return undefined;
  const fail = (message: string): never => {
    throw new ConfigError(`${configFile}: ${KEY}: ${message}`, configFile, [
      { path: 'flow.planning.planner', message },
    ]);
  };
  const { name } = parseAgentRef(ref);
  if (isAgentName(name) || name === PLANNER_AGENT) {
    fail(
      `"${ref}" is a built-in agent, not a planner: name one of your agents, or leave the key out for the flow's own planner (${existing(home)})`,
    );
  }
  if (!userAgentNames(home).includes(name)) fail(`there is no agent "${name}" (${existing(home)})`);
  try {
    return { ref, definition: resolveRunDefinition(ref, home, config) };
  } catch (error) {
    if (!(error instanceof AgentDefinitionError)) throw error;
    return fail(`the agent "${ref}" does not load: ${error.message}`);
  }
}

/**
 * The config the flow runs with: `[agent.planning] llm` set to the planner definition's
 * profile when it names one (else the `planning` profile stays), so the run's models,
 * pre-flight and recorded settings all see the planner's model.
 */
export function withPlannerProfile(
  config: WorkbenchConfig,
  planner: FlowPlanner | undefined,
): WorkbenchConfig {
  const profile = planner?.definition.data.profile;
  if (profile === undefined) return config;
  return {
    ...config,
    agent: { ...config.agent, planning: { ...config.agent.planning, llm: profile } },
  };
}

/** The planner's own system prompt: the definition's, rendered (its only tool is `planning`). */
export function plannerBasePrompt(config: WorkbenchConfig, planner: FlowPlanner): string {
  const def = planner.definition.data;
  return renderTemplate(def.system_prompt, {
    work_dir: config.sandbox.work_dir,
    date: dateValue(),
    agent_name: def.name,
    tools: toolListValue(['planning']),
    mcp_servers: '',
  });
}

/** What a run records of its planner: `planning.agent.definition` and its hash. */
export function plannerRecord(planner: FlowPlanner | undefined): Record<string, string> {
  if (!planner) return {};
  const { data, version, hash } = planner.definition;
  return {
    [`${PLANNER_AGENT}.agent.definition`]:
      version !== undefined ? `${data.name}@${version}` : data.name,
    [`${PLANNER_AGENT}.agent.definition_hash`]: hash,
  };
}
