/**
 * A third-party mock of the OpenAI API from npm, `openai-api-mock` (it intercepts the
 * HTTP requests of this process with nock), through the real client (issue 16 item 5).
 * Its streams carry no content-type header and no finish_reason; the `openai` SDK reads
 * them, and so does the workbench now (it refused them as "not a chat endpoint").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockOpenAIResponse } from 'openai-api-mock';
import { OpenAiLlm } from './openai-llm';
import { FAST_RETRY, testProfile } from './testing/profiles';

const BASE = 'http://openai-api-mock.invalid/v1';
let mock: ReturnType<typeof mockOpenAIResponse>;

beforeAll(() => {
  mock = mockOpenAIResponse(true, { baseUrl: BASE, seed: 16 });
});
afterAll(() => {
  mock.stopMocking();
});

describe('openai-api-mock (a third-party mock of the OpenAI API)', () => {
  it('streams an answer without a content-type header or a finish_reason, and it is read', async () => {
    const llm = new OpenAiLlm(testProfile(BASE, { maxRetries: 0 }), { retry: FAST_RETRY });
    const deltas: string[] = [];
    const response = await llm.complete(
      { messages: [{ role: 'user', content: 'hello' }] },
      { onDelta: (t) => deltas.push(t) },
    );
    expect(deltas.length).toBe(4);
    expect(response.content).toBe(deltas.join(''));
    expect(response.content!.length).toBeGreaterThan(0);
    expect(response.finishReason).toBe('stop');
    expect(response.model).toBe('gpt-test-mock');
  });
});
