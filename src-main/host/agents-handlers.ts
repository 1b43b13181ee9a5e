/**
 * The Agents page's requests (docs/agents.md "The Agents page"), the same for the
 * desktop app and `serve`: the agents with their versions and last runs, one agent, the
 * tools to pick from, check / save / create / duplicate / rename / delete / import /
 * export. What a definition says wrong is answered as field problems (data); a request
 * that cannot be done is a typed error. Also: a new run's `agentRef`, checked before the
 * run exists (a bad one is refused, not recorded as a failed run).
 */
import type { AgentLastRun, RunStartInput, RunSummary } from '@shared/ipc';
import { isAgentName } from '@shared/domain/agent';
import { parseAgentRef } from '@shared/domain/agent-definition';
import type { Runtime } from '../runtime/runtime';
import { ConfigError } from '../runtime/config/load';
import type { WorkbenchConfig } from '../runtime/config/schema';
import { listAgents, type AgentListCache } from '../runtime/agents/definitions/agent-store';
import {
  AgentEditError,
  agentDetail,
  checkAgent,
  createAgent,
  deleteAgent,
  exportAgent,
  importAgent,
  renameAgent,
  saveAgent,
} from '../runtime/agents/definitions/agent-editing';
import { AgentDefinitionError } from '../runtime/agents/definitions/load-definition';
import { toolCatalog } from '../runtime/agents/definitions/tool-catalog';
import { mcpAuthContext } from '../runtime/agents/mcp-auth';
import { AgentChoiceError, resolveAgentChoice } from '../runtime/launch/agent-choice';
import { definitionContext } from '../runtime/launch/run-definition';
import { isDefinitionPath } from '../runtime/agents/definitions/agent-store';
import type { Handlers } from './contract';
import { HandlerError } from './handler-error';

type AgentsChannel =
  | 'agents:list'
  | 'agents:get'
  | 'agents:tools'
  | 'agents:validate'
  | 'agents:save'
  | 'agents:create'
  | 'agents:rename'
  | 'agents:delete'
  | 'agents:import'
  | 'agents:export';

function loadConfig(runtime: Runtime): WorkbenchConfig {
  try {
    return runtime.services.loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      throw new HandlerError(
        'conflict',
        `config.toml does not load, so agents cannot be checked against its profiles and MCP servers: ${error.message}`,
        error.issues,
      );
    }
    throw error;
  }
}

/** Runs `body`, turning the store's refusals and a definition's problems into typed errors. */
function editing<T>(body: () => T): T {
  try {
    return body();
  } catch (error) {
    if (error instanceof AgentEditError) throw new HandlerError(error.code, error.message);
    if (error instanceof AgentDefinitionError) {
      const notFound = error.issues.some((i) => i.path === '(file)' || i.path === '(version)');
      throw new HandlerError(
        notFound ? 'not_found' : 'invalid_input',
        error.message,
        error.issues.map((i) => ({
          path: i.path,
          message: i.message,
          ...(i.line !== undefined ? { line: i.line } : {}),
        })),
      );
    }
    throw error;
  }
}

/** The newest run of each agent (by the name runs record), from the history's summaries. */
function lastRuns(summaries: readonly RunSummary[]): Map<string, AgentLastRun> {
  const last = new Map<string, AgentLastRun>();
  for (const s of summaries) {
    const seen = last.get(s.agent);
    if (seen && seen.startedAt >= s.startedAt) continue;
    last.set(s.agent, {
      runId: s.runId,
      startedAt: s.startedAt,
      ...(s.outcome !== undefined ? { outcome: s.outcome } : {}),
      ...(s.agentVersion !== undefined ? { version: s.agentVersion } : {}),
    });
  }
  return last;
}

export function createAgentsHandlers(runtime: Runtime): Pick<Handlers, AgentsChannel> {
  const { services } = runtime;
  // the page is opened again and again: files not changed since are not read again
  const listed: AgentListCache = new Map();
  const context = () => definitionContext(loadConfig(runtime));
  const withLastRun = <T extends { name: string }>(item: T) => {
    const last = lastRuns(runtime.runs.list()).get(item.name);
    return last ? { ...item, lastRun: last } : item;
  };
  return {
    'agents:list': async () => {
      const last = lastRuns(runtime.runs.list());
      return listAgents(services.home, context(), listed).map((entry) => {
        const { path: _path, source, ...rest } = entry;
        const lastRun = last.get(entry.name);
        return {
          ...rest,
          source: source === 'builtin' ? 'builtin' : 'home',
          ...(entry.path !== undefined ? { path: entry.path } : {}),
          ...(lastRun ? { lastRun } : {}),
        };
      });
    },
    'agents:get': async ({ name }) =>
      withLastRun(editing(() => agentDetail(services.home, name, context()))),
    'agents:tools': async () => {
      const config = loadConfig(runtime);
      return toolCatalog(
        services,
        services.sessions.open(runtime.sessionId),
        config,
        mcpAuthContext(services),
      );
    },
    'agents:validate': async ({ definition }) => checkAgent(definition, context()),
    'agents:save': async ({ name, definition }) =>
      editing(() => saveAgent(services.home, name, definition, context())),
    'agents:create': async ({ name, from }) =>
      editing(() => createAgent(services.home, name, from, context())),
    'agents:rename': async ({ name, to }) =>
      editing(() => renameAgent(services.home, name, to, context())),
    'agents:delete': async ({ name }) => {
      editing(() => deleteAgent(services.home, name));
      return { deleted: true };
    },
    'agents:import': async ({ content, name }) =>
      editing(() => importAgent(services.home, content, name, context())),
    'agents:export': async ({ ref }) => editing(() => exportAgent(services.home, ref, context())),
  };
}

/**
 * A new run's agent, when the UI names a user's agent (`agentRef`): checked now and
 * pinned to the version checked, with the built-in agent whose needs it shares as
 * `agent` (its pre-flight). A definition that does not load refuses the run with its
 * problems, field by field; nothing is recorded.
 */
export function admitAgentRef(runtime: Runtime, input: RunStartInput): RunStartInput {
  const ref = input.agentRef;
  if (ref === undefined) return input;
  if (isDefinitionPath(ref)) {
    throw new HandlerError(
      'invalid_input',
      `The run cannot start: "${ref}" is a file path; the UI runs agents by name (import the file on the Agents page)`,
      [{ path: 'agentRef', message: 'must be an agent name or NAME@VERSION' }],
    );
  }
  if (input.flow !== undefined) {
    throw new HandlerError(
      'invalid_input',
      `The run cannot start: a planning flow runs the built-in agents; run ${ref} without the flow`,
      [{ path: 'flow', message: "a user's agent runs without a flow" }],
    );
  }
  const { agentRef: _ref, ...rest } = input;
  if (isAgentName(parseAgentRef(ref).name) && input.agent !== undefined) {
    // a built-in agent named twice must be named the same
    if (input.agent !== parseAgentRef(ref).name) {
      throw new HandlerError(
        'invalid_input',
        `The run cannot start: agent is ${input.agent} but agentRef is ${ref}`,
      );
    }
  }
  try {
    const choice = resolveAgentChoice(ref, runtime.services.home, loadConfig(runtime));
    return {
      ...rest,
      agent: choice.agent,
      ...(choice.agentRef !== undefined ? { agentRef: choice.agentRef } : {}),
    };
  } catch (error) {
    if (error instanceof AgentDefinitionError) {
      throw new HandlerError(
        'invalid_input',
        `The run cannot start: agent ${ref}: ${error.message}`,
        error.issues.map((i) => ({
          path: `agentRef.${i.path}`,
          message: i.message,
          ...(i.line !== undefined ? { line: i.line } : {}),
        })),
      );
    }
    if (error instanceof AgentChoiceError)
      throw new HandlerError('invalid_input', `The run cannot start: ${error.message}`);
    throw error;
  }
}
