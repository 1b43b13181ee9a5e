/**
 * The model client for an agent (or the planner), built from its resolved profile:
 * `api_type = "scripted"` replays a scenario file; a profile with no API key (Ollama
 * needs none) runs the agent's built-in demo scenario, whose tools are real.
 */
import type { ConfigAgentName } from '../config/resolve';
import type { LlmProfile, WorkbenchConfig } from '../config/schema';
import type { LlmClient } from '../llm/llm-client';
import type { RuntimeServices } from '../agents/runtime-services';
import { GatedLlm } from '../llm/model-gates';

/** Which model a profile really runs: a scenario, the built-in demo, or the real one. */
export function modelKind(profile: LlmProfile): 'scripted' | 'demo' | 'real' {
  if (profile.apiType === 'scripted') return 'scripted';
  if (!profile.apiKey && profile.apiType !== 'ollama') return 'demo';
  return 'real';
}

export function modelClientFor(
  services: RuntimeServices,
  config: WorkbenchConfig,
  target: ConfigAgentName,
): LlmClient {
  return modelClientForProfile(services, services.config.resolveProfile(target, config), target);
}

export function modelClientForProfile(
  services: RuntimeServices,
  profile: LlmProfile,
  /** the agent whose calls these are (a flow's user executor is named by its key) */
  target: ConfigAgentName | string,
): LlmClient {
  const client = ungatedClient(services, profile, target);
  // Every run's calls of one profile pass the same gate (max_concurrency, 429 rests).
  return services.modelGates ? new GatedLlm(client, services.modelGates.for(profile)) : client;
}

function ungatedClient(
  services: RuntimeServices,
  profile: LlmProfile,
  /** the agent whose calls these are (a flow's user executor is named by its key) */
  target: ConfigAgentName | string,
): LlmClient {
  switch (modelKind(profile)) {
    case 'scripted':
      return services.scripted.client(profile, target);
    case 'demo':
      return services.scripted.demo(profile, target);
    case 'real':
      return services.createLlm(profile);
  }
}
