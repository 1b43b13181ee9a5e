/**
 * Pre-flight: what a run of this agent would meet, checked before it starts (UI and
 * CLI alike): the config, Docker and the sandbox image for agents with sandbox tools,
 * the model (its endpoint, or "demo model, no API key" said plainly), the MCP server of
 * the mcp agent, Chromium for the browser agent, and a chosen workspace folder. A user's
 * agent's definition must load, and what it needs comes from the tools it picks; so must
 * a flow's user executors' and planner's (`[flow.planning] executors`, `planner`), and a
 * missing one is a config error.
 *
 * A problem that makes the run pointless is an error (the run is refused, with the
 * fix); one it can live with is a warning (Manus without Docker still has its other
 * tools).
 */
import { existsSync } from 'node:fs';
import type { AgentName } from '@shared/domain/agent';
import type { PreflightCheck, PreflightInput, PreflightReport } from '@shared/ipc';
import { chooseMcpServer } from '../agents/mcp-agent';
import type { RuntimeServices } from '../agents/runtime-services';
import { SANDBOX_NEED } from '../agents/sandbox-need';
import { ConfigError } from '../config/load';
import type { ConfigAgentName } from '../config/resolve';
import type { LlmProfile, WorkbenchConfig } from '../config/schema';
import { DEMO_MCP_SERVER_NAME, DEMO_MODEL_NAME } from '../demo/scripted-provider';
import { locateChromium } from '../tools/browser/chromium-location';
import { modelKind } from './model-client';
import { probeModelEndpoint } from './model-probe';
import { withRunProfile } from './run-profile';
import { configForDefinition, resolveRunDefinition } from './run-definition';
import { AgentDefinitionError } from '../agents/definitions/load-definition';
import { definitionNeeds, type DefinitionNeeds } from '../agents/definitions/definition-needs';
import { checkWorkspace } from './workspace';
import { sandboxChecks } from './preflight-sandbox';

export { engineFix } from './preflight-sandbox';
import { definitionProfile, resolveFlowExecutors, type FlowExecutor } from './flow-executors';
import { resolveFlowPlanner, withPlannerProfile } from './flow-planner';
import type { SandboxNeed } from '../tools/sandbox/sandbox-outage';

export interface PreflightOptions {
  /** ask the model's endpoint whether it answers (the UI does; `run:start` does not wait) */
  probeModel?: boolean;
  signal?: AbortSignal;
}

export async function preflight(
  services: RuntimeServices,
  input: PreflightInput,
  options: PreflightOptions = {},
): Promise<PreflightReport> {
  let config: WorkbenchConfig;
  try {
    config = services.loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return report([
      {
        id: 'config',
        status: 'error',
        message: error.message,
        fix: 'Fix config.toml (Settings shows the key and the line).',
      },
    ]);
  }
  const agent = input.agent ?? 'manus';
  // a user's agent (docs/agents.md): its definition must load, and its tools say what it needs
  let own: DefinitionNeeds | undefined;
  let executors: FlowExecutor[] = [];
  try {
    if (input.flow === 'planning') {
      executors = resolveFlowExecutors(config, services.home, services.config.file);
      // a user agent as the planner: its profile's model is the planner's (flow-planner.ts)
      const planner = resolveFlowPlanner(config, services.home, services.config.file);
      config = withPlannerProfile(withRunProfile(config, agent, input.profile), planner);
    } else if (input.agentRef !== undefined) {
      const definition = resolveRunDefinition(input.agentRef, services.home, config);
      own = definitionNeeds(definition, Object.keys(config.mcp.servers));
      config = configForDefinition(config, agent, definition.data, input.profile);
    } else {
      // The profile chosen for this run, as the run will use it (run-profile.ts).
      config = withRunProfile(config, agent, input.profile);
    }
  } catch (error) {
    if (error instanceof AgentDefinitionError) {
      return report([
        {
          id: 'agent',
          status: 'error',
          message: `The agent definition does not load: ${error.message}`,
          fix: 'Fix the definition (the Agents page or the file shows the key and the line), or choose another agent.',
        },
      ]);
    }
    if (error instanceof ConfigError) {
      return report([
        {
          id: 'config',
          status: 'error',
          message: error.message,
          fix: 'Name agents that exist in [flow.planning] executors and planner (`workbench agents list`), or create the agent.',
        },
      ]);
    }
    return report([
      {
        id: 'config',
        status: 'error',
        message: (error as Error).message,
        fix: 'Choose one of the profiles Settings → Profiles lists.',
      },
    ]);
  }
  const cfg = config;
  const agents: AgentName[] =
    input.flow === 'planning'
      ? executors.flatMap((e) => ('builtin' in e ? [e.builtin] : []))
      : [agent];
  // a flow's user executors: what their definitions' tools need, on their own profiles
  const users = executors.flatMap((e) =>
    'builtin' in e
      ? []
      : [{ key: e.key, needs: definitionNeeds(e.definition, Object.keys(cfg.mcp.servers)) }],
  );
  const targets: ModelTarget[] = [
    ...(input.flow === 'planning' ? (['planning'] as const) : []),
    ...agents,
  ].map((name) => ({ name, profile: () => services.config.resolveProfile(name, cfg) }));
  for (const e of executors) {
    const profile = definitionProfile(cfg, e);
    if (profile !== undefined)
      targets.push({
        name: e.key,
        profile: () => services.config.resolveNamedProfile(profile, cfg),
      });
  }
  const checks: PreflightCheck[] = [];
  const need = own
    ? own.sandbox
    : flowSandboxNeed(
        agents.map((a) => SANDBOX_NEED[a]),
        users.map((u) => u.needs.sandbox),
        input.flow !== undefined,
      );
  const [sandbox, models] = await Promise.all([
    need === 'none' ? Promise.resolve([]) : sandboxChecks(services, config, need, options),
    modelChecks(targets, options),
  ]);
  checks.push(...sandbox, ...models);
  if (!own && agents.includes('mcp'))
    checks.push(mcpCheck(config, runsOnDemo(services, config, 'mcp')));
  const browser = own
    ? own.browser
    : agents.includes('browser') || users.some((u) => u.needs.browser);
  if (browser) checks.push(browserCheck(config));
  if (input.workspace) {
    checks.push(
      await checkWorkspace(input.workspace, { home: services.home, settings: config.sandbox }),
    );
  }
  return report(checks);
}

function report(checks: PreflightCheck[]): PreflightReport {
  return { checks, canStart: checks.every((c) => c.status !== 'error') };
}

function flowSandboxNeed(
  builtins: (SandboxNeed | 'none')[],
  users: (SandboxNeed | 'none')[],
  isFlow: boolean,
): 'required' | 'optional' | 'none' {
  const needs = [...builtins, ...users];
  if (needs.every((n) => n === 'none')) return 'none';
  // A flow can route around a missing sandbox (other executors, a replan).
  if (!isFlow && needs.includes('required')) return 'required';
  return 'optional';
}

/** An agent of the run whose model is checked: a config slot or a flow's user executor. */
interface ModelTarget {
  name: string;
  profile: () => LlmProfile;
}

async function modelChecks(
  targets: ModelTarget[],
  options: PreflightOptions,
): Promise<PreflightCheck[]> {
  const profiles = new Map<string, { profile: LlmProfile; agents: string[] }>();
  for (const { name: target, profile: resolveTarget } of targets) {
    let profile: LlmProfile;
    try {
      profile = resolveTarget();
    } catch (error) {
      return [
        {
          id: 'model',
          status: 'error',
          message: (error as Error).message,
          fix: 'Fix the profile in Settings.',
        },
      ];
    }
    const kind = modelKind(profile);
    const key = kind === 'real' ? `${profile.baseUrl}\n${profile.model}\n${profile.apiKey}` : kind;
    const entry = profiles.get(key);
    if (entry) entry.agents.push(target);
    else profiles.set(key, { profile, agents: [target] });
  }
  const checks = [...profiles.values()].map(
    async ({ profile, agents }): Promise<PreflightCheck> => {
      const who = targets.length > 1 ? `${agents.join(', ')}: ` : '';
      switch (modelKind(profile)) {
        case 'demo':
          return {
            id: 'model',
            status: 'info',
            message: `${who}the ${DEMO_MODEL_NAME.replace(/ \(.*/, '')} model will answer (no API key is set): its replies are scripted, its tools are real`,
            fix: 'Set a model and an API key in Settings to use a real model.',
          };
        case 'scripted':
          return {
            id: 'model',
            status: 'info',
            message: `${who}scripted replies (api_type = "scripted"${profile.scenario ? `, ${profile.scenario}` : ''})`,
          };
        case 'real': {
          if (!options.probeModel || profile.apiType === 'azure') {
            return {
              id: 'model',
              status: 'ok',
              message: `${who}${profile.model} at ${profile.baseUrl}`,
            };
          }
          const probe = await probeModelEndpoint(profile, {
            ...(options.signal ? { signal: options.signal } : {}),
          });
          return {
            id: 'model',
            status: probe.status,
            message: `${who}${probe.message}`,
            ...(probe.status === 'warn'
              ? { fix: 'Check the base URL and key in Settings (Test connection says more).' }
              : {}),
          };
        }
      }
    },
  );
  return Promise.all(checks);
}

/** Whether the built-in demo model answers for this agent (its profile has no key). */
function runsOnDemo(
  services: RuntimeServices,
  config: WorkbenchConfig,
  target: ConfigAgentName,
): boolean {
  try {
    return modelKind(services.config.resolveProfile(target, config)) === 'demo';
  } catch {
    return false; // the model check says what is wrong with the profile
  }
}

function mcpCheck(config: WorkbenchConfig, isDemo: boolean): PreflightCheck {
  if (isDemo) {
    // the demo's scripted replies know only the built-in server's tools
    const yours = Object.keys(config.mcp.servers);
    return {
      id: 'mcp',
      status: 'info',
      message: `the demo uses its built-in MCP server "${DEMO_MCP_SERVER_NAME}" (tools add and word_count)${yours.length > 0 ? `; yours (${yours.join(', ')}) are used with a real model` : ''}`,
      fix: 'Add your own server in Settings → MCP servers (or [mcp.servers.NAME] in config.toml), and set a model and API key.',
    };
  }
  try {
    const server = chooseMcpServer(config);
    const settings = config.mcp.servers[server]!;
    const where = settings.type === 'stdio' ? settings.command : settings.url;
    return {
      id: 'mcp',
      status: 'ok',
      message: `MCP server "${server}" (${settings.type}: ${where})`,
    };
  } catch (error) {
    return {
      id: 'mcp',
      status: 'error',
      message: (error as Error).message,
      fix: 'Add a server in Settings → MCP servers (Test lists its tools).',
    };
  }
}

function browserCheck(config: WorkbenchConfig): PreflightCheck {
  const found = locateChromium(config.browser);
  if (found.path && existsSync(found.path)) {
    return { id: 'browser', status: 'ok', message: `Chromium at ${found.path}` };
  }
  if (found.path) {
    return {
      id: 'browser',
      status: 'error',
      message: `The browser ${found.path} (from ${found.source === 'config' ? '[browser] executable_path' : 'WORKBENCH_CHROMIUM'}) does not exist`,
      fix: 'Fix the path in Settings → Browser, or clear it to use the system Chromium.',
    };
  }
  return {
    id: 'browser',
    status: 'error',
    message: `No Chromium or Chrome found (tried ${found.tried.join(', ')}): the browser agent cannot open pages`,
    fix: 'Install Chromium, or set its path in Settings → Browser (executable_path).',
  };
}
