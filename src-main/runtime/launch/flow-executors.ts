/**
 * The executors of a PlanningFlow run (`[flow.planning] executors`): built-in agents by
 * name, and user agents (docs/agents.md) by `NAME` or `NAME@V`, resolved from
 * WORKBENCH_HOME/agents. An executor's key is the `[tag]` a plan step names it with and
 * the prefix of its recorded settings (`mine.llm.model`, `mine.agent.definition`). A
 * name that is no agent, or a definition that does not load, is a config error naming
 * the key, the agent and the agents that exist, before anything of the run starts.
 */
import { existsSync, readdirSync } from 'node:fs';
import { isAgentName, type AgentName } from '@shared/domain/agent';
import { parseAgentRef } from '@shared/domain/agent-definition';
import { agentsDir, type ResolvedDefinition } from '../agents/definitions/agent-store';
import { AgentDefinitionError } from '../agents/definitions/load-definition';
import { resolveAgentSettings } from '../config/resolve';
import { ConfigError } from '../config/load';
import { ALL_AGENTS, type AgentRunSettings, type WorkbenchConfig } from '../config/schema';
import { PLANNER_AGENT } from '../flow/planner';
import { definitionSettings, resolveRunDefinition } from './run-definition';

export type FlowExecutor =
  | { key: AgentName; builtin: AgentName }
  | { key: string; ref: string; definition: ResolvedDefinition };

const KEY = '[flow.planning] executors';
const BUILTIN_EXECUTORS: readonly AgentName[] = ['manus', 'swe', 'browser', 'mcp', 'toolcall'];
/** what a plan step's `[tag]` can name (stepAgentTag in tools/planning/plan.ts) */
const TAGGABLE = /^[a-z][a-z0-9_-]*$/;

/** The user agents in WORKBENCH_HOME/agents, by name. */
export function userAgentNames(home: string): string[] {
  const dir = agentsDir(home);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.toml'))
    .map((f) => f.slice(0, -'.toml'.length))
    .sort();
}

/** The agents that exist, for a config error. */
export function existing(home: string): string {
  const yours = userAgentNames(home);
  return `the built-in agents are ${BUILTIN_EXECUTORS.join(', ')}; yours (${agentsDir(home)}) are ${yours.length > 0 ? yours.join(', ') : 'none yet (`workbench agents new NAME`)'}`;
}

/** The executors `config` names, each resolved; throws ConfigError (file `configFile`). */
export function resolveFlowExecutors(
  config: WorkbenchConfig,
  home: string,
  configFile: string,
): FlowExecutor[] {
  const fail = (message: string): never => {
    throw new ConfigError(`${configFile}: ${KEY}: ${message}`, configFile, [
      { path: 'flow.planning.executors', message },
    ]);
  };
  const executors: FlowExecutor[] = [];
  for (const ref of new Set(config.flow.planning.executors)) {
    const { name } = parseAgentRef(ref);
    if (isAgentName(ref)) {
      executors.push({ key: ref, builtin: ref });
      continue;
    }
    if (isAgentName(name)) {
      // `manus@1` is the built-in agent itself
      if (ref === `${name}@1`) executors.push({ key: name, builtin: name });
      else fail(`"${ref}": the built-in agent ${name} has one version, ${name}@1`);
      continue;
    }
    if (name === PLANNER_AGENT) fail(`"${ref}": "planning" is the planner, not an executor`);
    if (!TAGGABLE.test(name)) {
      fail(
        `"${ref}": a plan step names its executor with a [tag] of lowercase letters, digits, - and _, so an executor's name must be one (rename the agent)`,
      );
    }
    if (!userAgentNames(home).includes(name)) {
      fail(`there is no agent "${name}" (${existing(home)})`);
    }
    let definition: ResolvedDefinition;
    try {
      definition = resolveRunDefinition(ref, home, config);
    } catch (error) {
      if (!(error instanceof AgentDefinitionError)) throw error;
      fail(`the agent "${ref}" does not load: ${error.message}`);
      continue;
    }
    executors.push({ key: name, ref, definition });
  }
  const keys = executors.map((e) => e.key);
  const twice = keys.find((k, i) => keys.indexOf(k) !== i);
  if (twice !== undefined) fail(`"${twice}" is named twice (one version of an agent per flow)`);
  return executors;
}

/** The run settings an executor runs with: `[agent.NAME]`, or the definition's `[run]`. */
export function executorSettings(config: WorkbenchConfig, e: FlowExecutor): AgentRunSettings {
  return 'builtin' in e
    ? resolveAgentSettings(config, e.builtin)
    : definitionSettings(config, e.definition.data);
}

/** The profile a user agent's definition runs on (its own, else `[agent] llm`, else `[llm]`). */
export function definitionProfile(config: WorkbenchConfig, e: FlowExecutor): string | undefined {
  if ('builtin' in e) return undefined;
  return e.definition.data.profile ?? config.agent[ALL_AGENTS]?.llm ?? 'default';
}
