/**
 * The sampling parameters a profile's requests carry, as the wire names them: the one
 * place `OpenAiLlm` builds them from and `llm.requested.params` reports them from, so
 * what the timeline shows is what was sent.
 */
import type { RequestParams } from '@shared/events';
import type { LlmProfile } from '../config/schema';
import { isReasoningProfile } from '../config/reasoning-model';

export function requestParamsOf(
  profile: Pick<LlmProfile, 'apiType' | 'model' | 'maxTokens' | 'temperature' | 'reasoning'>,
): RequestParams {
  return isReasoningProfile(profile)
    ? { max_completion_tokens: profile.maxTokens }
    : { max_tokens: profile.maxTokens, temperature: profile.temperature };
}
