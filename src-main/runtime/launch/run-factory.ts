/**
 * Builds a run from the config read at start time: the agent's resolved settings and
 * model profile, the session it works in (the app's, or a folder the user chose), and a
 * model client (the built-in demo model when the profile has no API key). A
 * `--flow planning` run becomes a PlanningFlow. The run's debugger gets the agent's saved
 * breakpoints and approval tools, the prices of its models and a way to switch them
 * (run-models.ts).
 */
import { buildAgent, type AgentBuildInput } from '../agents/catalog';
import { buildDefinedAgent } from '../agents/definitions/build-defined-agent';
import { recordedDefinition } from '../agents/definitions/agent-store';
import { recordedBuiltin } from '../agents/definitions/builtin-definitions';
import { configForDefinition, definitionSettings, resolveRunDefinition } from './run-definition';
import { resolveAgentSettings } from '../config/resolve';
import { preparePlanningRun } from './planning-run';
import { resolveFlowExecutors } from './flow-executors';
import { resolveFlowPlanner, withPlannerProfile } from './flow-planner';
import { RunModels } from './run-models';
import { openRunSession } from './run-session';
import { checkpointHook } from './checkpoint-hook';
import {
  continuationMaxSteps,
  lineageMaxSteps,
  flowResumePoint,
  lineageResumePoint,
  openForkSession,
} from './lineage-launch';
import { runCheck } from './run-check';
import { runScorers } from './run-scorers';
import { modelClientForProfile } from './model-client';
import { withRunProfile } from './run-profile';
import { withRecordedSettings } from './recorded-settings';
import { agentSettingsRecord, sessionSettingsRecord } from './run-settings';
import type { RuntimeServices } from '../agents/runtime-services';
import type { PreparedRun, RunFactory } from '../runs/run-manager';
import { RunSetupError } from '../runs/run-setup-error';

export function createRunFactory(services: RuntimeServices): RunFactory {
  return async (input, context) => {
    if (input.prompt && (input.agent !== 'mcp' || input.flow)) {
      throw new Error(
        `An MCP prompt (${input.prompt.server}/${input.prompt.name}) gives the task of an mcp agent run: start it with the mcp agent and no flow.`,
      );
    }
    const loaded = services.loadConfig();
    // a user's agent (docs/agents.md): a definition that does not load refuses the run
    const definition =
      input.agentRef !== undefined && input.flow === undefined
        ? resolveRunDefinition(input.agentRef, services.home, loaded)
        : undefined;
    const today = definition
      ? configForDefinition(loaded, input.agent, definition.data, input.profile)
      : withRunProfile(loaded, input.agent, input.profile);
    // "Run again" with the settings the run recorded: its profile and agent settings, the
    // key from today's config (checked before the run was started; recorded-settings.ts)
    const asRecorded = input.recorded
      ? withRecordedSettings(today, input.recorded, (raw) => services.config.resolveApiKey(raw))
      : today;
    // a flow's planner as a user agent: a missing one refuses the run; its profile is the planner's
    const flowPlanner =
      input.flow === 'planning'
        ? resolveFlowPlanner(asRecorded, services.home, services.config.file)
        : undefined;
    const config = withPlannerProfile(asRecorded, flowPlanner);
    // a flow's executors, its user agents' definitions loaded: a missing one refuses the run
    const flowExecutors =
      input.flow === 'planning'
        ? resolveFlowExecutors(config, services.home, services.config.file)
        : undefined;
    const lineage = input.lineage;
    const opened =
      lineage?.kind === 'fork'
        ? await openForkSession(services, config, lineage, context)
        : await openRunSession(services, input, context, config.sandbox);
    const where = {
      sessionId: opened.session.id,
      ...(opened.workspace ? { workspace: opened.workspace } : {}),
    };
    let prepared: PreparedRun;
    try {
      const models = new RunModels(services, config, context.debug);
      if (flowExecutors) {
        prepared = preparePlanningRun(
          services,
          config,
          input,
          context,
          models,
          opened.session,
          flowExecutors,
          flowPlanner,
          {
            ...(lineage ? { resume: flowResumePoint(lineage, context) } : {}),
            ...optional('atStepBoundary', checkpointHook(services, config, context, opened)),
          },
        );
      } else {
        const settings = definition
          ? definitionSettings(config, definition.data)
          : resolveAgentSettings(config, input.agent);
        const agentName = definition?.data.name ?? input.agent;
        const resume = lineage ? lineageResumePoint(input, lineage, context) : undefined;
        if (resume && lineage?.kind === 'continue') {
          settings.maxSteps = continuationMaxSteps(
            resume.step,
            input.maxSteps ?? settings.maxSteps,
          );
          if (lineage.agentModel) models.preset(input.agent, lineage.agentModel);
        } else if (resume && lineage) {
          const isFork = lineage.kind === 'fork';
          settings.maxSteps = lineageMaxSteps(
            isFork ? settings.maxSteps : (input.maxSteps ?? settings.maxSteps),
            resume.step,
            isFork ? input.maxSteps : undefined,
          );
          if (lineage.agentModel) models.preset(input.agent, lineage.agentModel);
        } else if (input.maxSteps !== undefined) settings.maxSteps = input.maxSteps;
        const llm = models.clientFor(input.agent);
        const atStepBoundary = checkpointHook(services, config, context, opened);
        context.debug?.setPricing(models.pricing());
        if (!input.ignoreSavedBreakpoints) {
          context.debug?.addBreakpoints(settings.breakpoints ?? [], 'config', agentName);
          context.debug?.addApprovals(settings.approveTools ?? [], 'config', agentName);
        }
        const buildInput: AgentBuildInput = {
          name: agentName,
          llm,
          settings,
          config,
          session: opened.session,
          services,
          task: input.task,
          ...(input.prompt ? { prompt: input.prompt } : {}),
          modelFor: (profile) =>
            modelClientForProfile(
              services,
              services.config.resolveNamedProfile(profile, config),
              input.agent,
            ),
          env: {
            emit: context.emit,
            runId: context.runId,
            ...(context.debug ? { debug: context.debug } : {}),
            ...(atStepBoundary ? { atStepBoundary } : {}),
            ...(context.keepImage ? { keepImage: context.keepImage } : {}),
          },
        };
        const built = await (
          definition
            ? buildDefinedAgent(buildInput, definition)
            : buildAgent(input.agent, buildInput)
        ).catch((error: unknown) => {
          throw new RunSetupError(error, { model: llm.model, maxSteps: settings.maxSteps });
        });
        prepared = {
          agentName,
          agentDefinition: definition
            ? recordedDefinition(definition)
            : recordedBuiltin(input.agent),
          model: llm.model,
          maxSteps: settings.maxSteps,
          ...(built.task !== undefined ? { task: built.task } : {}),
          settings: {
            // the profile the agent starts on: a fork's or continuation's, else its own
            ...agentSettingsRecord(
              lineage?.agentModel !== undefined
                ? services.config.resolveNamedProfile(lineage.agentModel, config)
                : services.config.resolveProfile(input.agent, config),
              settings,
            ),
            ...sessionSettingsRecord(config),
          },
          execute: async (task, signal) => {
            const result = await built.agent.run(task, { signal, ...(resume ? { resume } : {}) });
            // A batch's check judges what the agent left, unless the run was stopped.
            if (input.check !== undefined && result.outcome !== 'cancelled') {
              try {
                await runCheck({
                  command: input.check,
                  manager: services.sandboxes,
                  session: opened.session,
                  settings: config.sandbox,
                  emit: context.emit,
                  signal,
                });
              } catch (error) {
                // Stopped during its check: the run did not finish (a batch runs it again).
                if (signal.aborted) return { ...result, outcome: 'cancelled', state: 'FINISHED' };
                throw error;
              }
            }
            // An experiment's scorers, likewise (recorded before run.finished).
            if (input.scoring && result.outcome !== 'cancelled') {
              try {
                await runScorers({
                  scoring: input.scoring,
                  task: typeof task === 'string' ? task : input.task,
                  manager: services.sandboxes,
                  session: opened.session,
                  settings: config.sandbox,
                  emit: context.emit,
                  events: () => context.readRun?.(context.runId) ?? [],
                  judgeModel: (profile) =>
                    modelClientForProfile(
                      services,
                      services.config.resolveNamedProfile(profile, config),
                      input.agent,
                    ),
                  signal,
                });
              } catch (error) {
                if (signal.aborted) return { ...result, outcome: 'cancelled', state: 'FINISHED' };
                throw error;
              }
            }
            return result;
          },
          dispose: () => built.dispose(),
        };
      }
    } catch (error) {
      await opened.release();
      throw error;
    }
    const run = prepared;
    return {
      ...run,
      ...where,
      dispose: async () => {
        try {
          await run.dispose?.();
        } finally {
          await opened.release();
        }
      },
    };
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
