/**
 * A PlanningFlow run (`workbench run --flow planning`, or a flow run from the UI): the
 * planner uses the `planning` profile and `[agent.planning] max_steps` as the run-wide
 * step budget; executors come from `[flow.planning] executors`, each built from the
 * catalog (a built-in agent) or from its definition (a user's agent: its prompts, tools,
 * `[run]` settings and profile) and sharing the run's session (one sandbox). The planner
 * is the flow's fixed planning prompt, or a user agent's system prompt
 * (`[flow.planning] planner`, flow-planner.ts), with only the `planning` tool.
 */
import type { AgentName } from '@shared/domain/agent';
import { buildAgent, type AgentBuildInput } from '../agents/catalog';
import { buildDefinedAgent } from '../agents/definitions/build-defined-agent';
import { resolveAgentSettings } from '../config/resolve';
import type { WorkbenchConfig } from '../config/schema';
import type { RunModels } from './run-models';
import { flowRunSettings, type UserExecutorRecord } from './run-settings';
import { definitionProfile, executorSettings, type FlowExecutor } from './flow-executors';
import { plannerBasePrompt, plannerRecord, type FlowPlanner } from './flow-planner';
import type { PreparedRun, ResolvedRunInput, RunContext } from '../runs/run-manager';
import type { RuntimeServices } from '../agents/runtime-services';
import type { Session } from '../session/session';
import { PlanningFlow, type ExecutorSpec, type FlowResumePoint } from '../flow/planning-flow';
import { PLANNER_AGENT } from '../flow/planner';

const EXECUTOR_DESCRIPTIONS: Record<AgentName, string> = {
  manus: 'general tasks: Python, shell and files in a sandbox, web pages, MCP tools',
  swe: 'software engineering: shell commands and precise file edits in the sandbox',
  browser: 'reading and operating web pages in a headless browser',
  mcp: 'the tools of the configured MCP server',
  toolcall: 'answering directly, without side effects',
};

export function preparePlanningRun(
  services: RuntimeServices,
  config: WorkbenchConfig,
  input: ResolvedRunInput,
  context: RunContext,
  models: RunModels,
  session: Session,
  /** `[flow.planning] executors`, resolved (flow-executors.ts) */
  flowExecutors: readonly FlowExecutor[],
  /** `[flow.planning] planner`, resolved (flow-planner.ts); its profile is in `config` already */
  flowPlanner: FlowPlanner | undefined,
  timeTravel: {
    /** a fork: the plan, the planner's memory and the steps used at the fork step */
    resume?: FlowResumePoint;
    /** the checkpoint hook, called with the run-wide step */
    atStepBoundary?: (agent: string, step: number) => Promise<void>;
  } = {},
): PreparedRun {
  const flowSettings = config.flow.planning;
  const configured = input.maxSteps ?? resolveAgentSettings(config, 'planning').maxSteps;
  // A fork counts on from its parent's steps: room for more unless the user set a limit.
  const used = timeTravel.resume?.stepsUsed ?? 0;
  const maxSteps =
    used > 0 && input.maxSteps === undefined && configured <= used ? used + configured : configured;
  const planner = models.clientFor('planning');
  // Saved breakpoints are left out when the run asks (CLI --no-breakpoints).
  const debug = input.ignoreSavedBreakpoints ? undefined : context.debug;
  const gate = context.debug;
  // [agent.planning] breakpoints watch the whole flow; an executor's only that executor.
  debug?.addBreakpoints(resolveAgentSettings(config, 'planning').breakpoints ?? [], 'config');
  debug?.addApprovals(resolveAgentSettings(config, 'planning').approveTools ?? [], 'config');
  const keys = flowExecutors.map((e) => e.key);
  const executors: ExecutorSpec[] = flowExecutors.map((e) => executorSpec(e));
  for (const e of flowExecutors) {
    const profile = definitionProfile(config, e);
    if (profile !== undefined) models.assign(e.key, profile);
    const saved = executorSettings(config, e);
    debug?.addBreakpoints(saved.breakpoints ?? [], 'config', e.key);
    debug?.addApprovals(saved.approveTools ?? [], 'config', e.key);
  }

  function executorSpec(executor: FlowExecutor): ExecutorSpec {
    const { key } = executor;
    const settings = executorSettings(config, executor);
    return {
      key,
      description:
        'builtin' in executor
          ? EXECUTOR_DESCRIPTIONS[executor.builtin]
          : executor.definition.data.description || `the user agent ${executor.ref}`,
      maxSteps: settings.maxSteps,
      async create(options) {
        const input: AgentBuildInput = {
          name: key,
          llm: models.clientFor(key),
          settings: { ...settings, maxSteps: options.maxSteps },
          config,
          session,
          services,
          env: {
            emit: options.emit,
            runId: context.runId,
            ...(gate ? { debug: gate } : {}),
            ...(context.keepImage ? { keepImage: context.keepImage } : {}),
            // Executors count their own steps; checkpoints are keyed by the run-wide step.
            ...(checkpoint
              ? { atStepBoundary: (agent: string) => checkpoint(agent, lastStep) }
              : {}),
          },
          extras: { tools: options.extraTools, specialToolNames: options.specialToolNames },
        };
        const built = await ('builtin' in executor
          ? buildAgent(executor.builtin, input)
          : buildDefinedAgent(input, executor.definition));
        return {
          run: (prompt, signal) => built.agent.run(prompt, { signal }),
          dispose: () => built.dispose(),
        };
      },
    };
  }

  const checkpoint = timeTravel.atStepBoundary;
  let lastStep = 0;
  const flow = new PlanningFlow({
    planner,
    ...(flowPlanner ? { plannerPrompt: plannerBasePrompt(config, flowPlanner) } : {}),
    executors,
    // Untagged steps go to the agent the run was started with, when it is an executor.
    defaultExecutor: keys.includes(input.agent) ? input.agent : keys[0]!,
    maxSteps,
    maxStepRetries: flowSettings.max_step_retries,
    maxReplans: flowSettings.max_replans,
    carryMemory: flowSettings.carry_memory,
    emit: (event) => {
      if (event.type === 'step.finished') lastStep = event.step;
      context.emit(event);
    },
    ...(gate ? { debug: gate } : {}),
  });
  // Executors are built per plan step; their prices are known from the config already.
  for (const key of keys) models.include(key);
  gate?.setPricing(models.pricing());
  return {
    agentName: PLANNER_AGENT,
    model: planner.model,
    maxSteps,
    settings: {
      ...flowRunSettings(config, (target) => services.config.resolveProfile(target, config), {
        maxSteps,
        executors: flowExecutors.map((e) =>
          'builtin' in e ? e.builtin : userRecord(services, config, e),
        ),
      }),
      ...plannerRecord(flowPlanner),
    },
    execute: (task, signal) =>
      flow.run(task, { signal, ...(timeTravel.resume ? { resume: timeTravel.resume } : {}) }),
  };
}

/** What a run records of a user executor: its profile, settings and definition version. */
function userRecord(
  services: RuntimeServices,
  config: WorkbenchConfig,
  e: Extract<FlowExecutor, { definition: unknown }>,
): UserExecutorRecord {
  return {
    key: e.key,
    profile: services.config.resolveNamedProfile(definitionProfile(config, e)!, config),
    settings: executorSettings(config, e),
    definition: {
      name: e.definition.data.name,
      ...(e.definition.version !== undefined ? { version: e.definition.version } : {}),
      hash: e.definition.hash,
    },
  };
}
