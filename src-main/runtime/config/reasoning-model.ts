/**
 * Which profiles talk to a reasoning model (o1, o3, o4, gpt-5, or any profile that says
 * `reasoning = true`, as an Azure deployment named otherwise needs): those take
 * `max_completion_tokens` and no temperature. Here, not in llm/, because Test connection
 * (config) asks it too and the model client (llm) builds its requests from it.
 */
import type { LlmProfile } from './schema';

const REASONING_MODEL = /^(o\d|gpt-5)/i;

export function isReasoningProfile(
  profile: Pick<LlmProfile, 'apiType' | 'model' | 'reasoning'>,
): boolean {
  if (profile.reasoning) return true;
  return profile.apiType !== 'ollama' && REASONING_MODEL.test(profile.model);
}
