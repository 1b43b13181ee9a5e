/**
 * The model client for an agent (or the planner), built from its resolved profile:
 * `api_type = "scripted"` replays a scenario file; a profile with no API key (Ollama
 * needs none) runs the agent's built-in demo scenario, whose tools are real.
 */
import type { ConfigAgentName } from '../config/resolve';
import type { LlmProfile, WorkbenchConfig } from '../config/schema';
import type { LlmClient } from '../llm/llm-client';
import type { RuntimeServices } from '../agents/runtime-services';

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
  if (profile.apiType === 'scripted') return services.scripted.client(profile, target);
  if (!profile.apiKey && profile.apiType !== 'ollama')
    return services.scripted.demo(profile, target);
  return services.createLlm(profile);
}
