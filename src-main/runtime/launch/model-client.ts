/**
 * The model client for an agent (or the planner), built from its resolved profile:
 * `api_type = "scripted"` replays a scenario file; a profile with no API key (Ollama
 * needs none) runs the agent's built-in demo scenario, whose tools are real.
 */
import type { ConfigAgentName } from '../config/resolve';
import type { LlmProfile, WorkbenchConfig } from '../config/schema';
import type { LlmClient } from '../llm/llm-client';
import type { RuntimeServices } from '../agents/runtime-services';

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
  target: ConfigAgentName,
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
