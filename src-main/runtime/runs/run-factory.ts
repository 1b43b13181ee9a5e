/**
 * Builds a run from the config read at start time: the agent's resolved settings and
 * model profile, the session's shared resources, and a model client (the built-in demo
 * model when the profile has no API key).
 */
import { AGENT_BUILDERS } from '../agents/catalog';
import { resolveAgentSettings } from '../config/resolve';
import { createDemoLlm } from '../demo/demo-model';
import type { RuntimeServices } from '../services';
import type { RunFactory } from './run-manager';

export function createRunFactory(services: RuntimeServices): RunFactory {
  return async (input, context) => {
    const config = services.loadConfig();
    const settings = resolveAgentSettings(config, input.agent);
    if (input.maxSteps !== undefined) settings.maxSteps = input.maxSteps;
    const profile = services.config.resolveProfile(input.agent, config);
    const needsNoKey = profile.apiType === 'ollama';
    const llm = profile.apiKey || needsNoKey ? services.createLlm(profile) : createDemoLlm();
    const session = services.sessions.open(context.sessionId);
    const built = await AGENT_BUILDERS[input.agent]({
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
      execute: (task, signal) => built.agent.run(task, { signal }),
      dispose: () => built.dispose(),
    };
  };
}
