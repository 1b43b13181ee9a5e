/**
 * extract_content's model call is a call of the agent's profile like the agent's own: it
 * waits at the profile's gate (`max_concurrency`) and says so with `llm.queued`, and a
 * 429 shows as `llm.retried`. The real client against the scripted OpenAI server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEventPayload } from '@shared/events';
import { GatedLlm, ModelGates } from '../../llm/model-gates';
import { OpenAiLlm } from '../../llm/openai-llm';
import { FAST_RETRY, testProfile } from '../../llm/testing/profiles';
import {
  startScriptedServer,
  type ScriptedOpenAiServer,
} from '../../llm/testing/scripted-openai-server';
import { extractContent } from './extract-content';

let server: ScriptedOpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('extract_content at the profile gate', () => {
  it('waits its turn with llm.queued and shows a 429 as llm.retried', async () => {
    const started = await startScriptedServer([
      // the agent's own call, holding the profile's only slot for a while
      { content: 'busy', delayMs: 300 },
      { error: { status: 429, headers: { 'retry-after': '0' } } },
      { content: 'The price is 3 EUR.' },
    ]);
    server = started.server;
    const profile = testProfile(started.baseUrl, { name: 'capped', maxConcurrency: 1 });
    const gate = new ModelGates().for(profile);
    const llm = new GatedLlm(new OpenAiLlm(profile, { retry: FAST_RETRY }), gate);
    const events: RunEventPayload[] = [];
    const signal = new AbortController().signal;

    const agentCall = llm.complete({ messages: [{ role: 'user', content: 'hi' }] }, { signal });
    // the agent's call is at the server before the extraction asks
    await expect.poll(() => server!.requests.length).toBe(1);
    const extracted = await extractContent(
      { url: 'https://shop.test/', title: 'Shop', text: 'Price: 3 EUR' },
      'the price',
      {
        llm,
        maxContentLength: 10_000,
        signal,
        agent: 'browser',
        step: 2,
        emit: (e) => events.push(e),
      },
    );
    await agentCall;

    expect(extracted).toContain('The price is 3 EUR.');
    const queued = events.filter((e) => e.type === 'llm.queued');
    expect(queued).toEqual([
      expect.objectContaining({
        agent: 'browser',
        step: 2,
        model: profile.model,
        reason: 'max_concurrency',
        capacity: 1,
      }),
    ]);
    const retried = events.filter((e) => e.type === 'llm.retried');
    expect(retried).toEqual([expect.objectContaining({ agent: 'browser', step: 2, status: 429 })]);
  });
});
