/**
 * Builds a run from the config read at start time: the agent's resolved settings and
 * model profile, the session's shared resources, and a model client (the built-in demo
 * model when the profile has no API key). A `--flow planning` run becomes a PlanningFlow.
 */
import { buildAgent } from '../agents/catalog';
import { resolveAgentSettings } from '../config/resolve';
import { preparePlanningRun } from './planning-run';
import { modelClientFor } from './model-client';
import { agentSettingsRecord, sessionSettingsRecord } from './run-settings';
import type { RuntimeServices } from '../agents/runtime-services';
import type { RunFactory } from '../runs/run-manager';

export function createRunFactory(services: RuntimeServices): RunFactory {
  return async (input, context) => {
    const config = services.loadConfig();
    if (input.flow === 'planning') return preparePlanningRun(services, config, input, context);
    const settings = resolveAgentSettings(config, input.agent);
    if (input.maxSteps !== undefined) settings.maxSteps = input.maxSteps;
    const llm = modelClientFor(services, config, input.agent);
    const session = services.sessions.open(context.sessionId);
    const built = await buildAgent(input.agent, {
      name: input.agent,
      llm,
      settings,
      config,
      session,
      services,
      env: { emit: context.emit, runId: context.runId },
    });
    return {
      agentName: input.agent,
      model: llm.model,
      maxSteps: settings.maxSteps,
      settings: {
        ...agentSettingsRecord(services.config.resolveProfile(input.agent, config), settings),
        ...sessionSettingsRecord(config),
      },
      execute: (task, signal) => built.agent.run(task, { signal }),
      dispose: () => built.dispose(),
    };
  };
}
