/**
 * Errors about the shape of an answer (a stream past its deadline, a reply that is not
 * a chat completion, no choices), worded for the user: which profile, what to check.
 */
import { LlmError } from './llm-errors';

export interface AnswerSource {
  profileName: string;
  model: string;
  baseUrl: string;
}

/** The attempt's deadline passed mid-stream: silent for most of it, or trickling. */
export function deadlineError(
  source: AnswerSource,
  timeoutMs: number,
  lastChunkAt: number,
  received: number,
): LlmError {
  const seconds = timeoutMs / 1000;
  const silentMs = Date.now() - lastChunkAt;
  const message =
    silentMs >= timeoutMs / 2
      ? `The model's stream stalled: nothing arrived for ${(silentMs / 1000).toFixed(1)} s (after ${received} characters; timeout ${seconds} s of profile "${source.profileName}").`
      : `The model did not finish its answer within ${seconds} s (timeout of profile "${source.profileName}"): it kept sending, too slowly (${received} characters so far).`;
  return new LlmError('NETWORK_MIDSTREAM', message);
}

export function notAChatEndpoint(source: AnswerSource, contentType: string | null): LlmError {
  return new LlmError(
    'CONFIG',
    `${source.baseUrl} did not answer like a chat-completions endpoint (content-type ${contentType || 'unknown'}): check base_url of profile "${source.profileName}" (it usually ends in /v1).`,
  );
}

export function emptyChoices(source: AnswerSource): LlmError {
  return new LlmError(
    'UNKNOWN',
    `The model answered with an empty "choices" list (profile "${source.profileName}", model "${source.model}"): no reply to use. This can be a provider-side content filter.`,
  );
}

/**
 * The stream ended cleanly but without `finish_reason` or `[DONE]`: a proxy or the server
 * closed it half-way. Retried like a dropped connection (the whole answer can be asked for
 * again); the text so far is kept if every attempt ends the same way.
 */
export function streamEndedEarly(source: AnswerSource, received: number): LlmError {
  return new LlmError(
    'RETRYABLE',
    `The model's stream ended before the answer was complete (no finish_reason and no [DONE], after ${received} characters; profile "${source.profileName}", ${source.baseUrl}).`,
  );
}
