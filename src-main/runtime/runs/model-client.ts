/**
 * The model client for an agent (or the planner): built from its resolved profile, or
 * the built-in demo model when the profile has no API key (Ollama needs none).
 */
import { createDemoLlm } from '../demo/demo-model';
import type { ConfigAgentName } from '../config/resolve';
import type { WorkbenchConfig } from '../config/schema';
import type { LlmClient } from '../llm/llm-client';
import type { RuntimeServices } from '../services';

export function modelClientFor(
  services: RuntimeServices,
  config: WorkbenchConfig,
  target: ConfigAgentName,
): LlmClient {
  const profile = services.config.resolveProfile(target, config);
  const needsNoKey = profile.apiType === 'ollama';
  return profile.apiKey || needsNoKey ? services.createLlm(profile) : createDemoLlm();
}
