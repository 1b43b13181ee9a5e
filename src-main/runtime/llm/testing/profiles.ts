/** A resolved LlmProfile for tests that point the real client at the scripted server. */
import type { LlmProfile } from '../../config/schema';

export function testProfile(baseUrl: string, overrides: Partial<LlmProfile> = {}): LlmProfile {
  return {
    name: 'default',
    model: 'gpt-test',
    baseUrl,
    apiKey: 'sk-test-key-0000',
    apiType: 'openai',
    apiVersion: '',
    maxTokens: 256,
    temperature: 0,
    maxInputTokens: 100_000,
    stream: true,
    timeoutMs: 10_000,
    maxRetries: 2,
    ...overrides,
  };
}

/** Short backoff so retry tests take milliseconds; Retry-After is still honoured in full. */
export const FAST_RETRY = { baseDelayMs: 20, maxDelayMs: 100 } as const;
