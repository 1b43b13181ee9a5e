import { describe, expect, it } from 'vitest';
import type { ChatOptions, ChatResponse, LlmClient, QueuedNotice } from './llm-client';
import type { RequestParams } from '@shared/events';
import { GatedLlm, ModelGates } from './model-gates';

const answer: ChatResponse = {
  content: 'ok',
  toolCalls: [],
  finishReason: 'stop',
  usage: { prompt: 1, completion: 1 },
  model: 'm',
};

/** A client whose calls take `ms`; counts calls in flight; the first call may hit a 429. */
function client(ms: number, options: { rateLimitFirst?: number } = {}) {
  let live = 0;
  let most = 0;
  const startedAt: number[] = [];
  let calls = 0;
  const llm: LlmClient = {
    model: 'm',
    async complete(_request, chat: ChatOptions = {}) {
      calls += 1;
      startedAt.push(Date.now());
      live += 1;
      most = Math.max(most, live);
      if (calls === 1 && options.rateLimitFirst !== undefined) {
        // as OpenAiLlm does: it tells the caller before it waits out the Retry-After
        chat.onRetry?.({ attempt: 1, status: 429, delayMs: options.rateLimitFirst, error: '429' });
        await new Promise((r) => setTimeout(r, options.rateLimitFirst));
      }
      await new Promise((r) => setTimeout(r, ms));
      live -= 1;
      return answer;
    },
  };
  return { llm, most: () => most, startedAt };
}

describe('ModelGates', () => {
  it('caps the calls of a profile in flight across clients; the rest queue and say so', async () => {
    const gates = new ModelGates();
    const inner = client(30);
    const notices: QueuedNotice[] = [];
    const clients = Array.from(
      { length: 5 },
      () => new GatedLlm(inner.llm, gates.for({ name: 'fast', maxConcurrency: 2 })),
    );
    await Promise.all(
      clients.map((c) => c.complete({ messages: [] }, { onQueued: (n) => notices.push(n) })),
    );
    expect(inner.most()).toBe(2);
    expect(notices.filter((n) => n.reason === 'max_concurrency').length).toBeGreaterThanOrEqual(3);
    expect(notices[0]).toMatchObject({ reason: 'max_concurrency', capacity: 2 });
    // another profile, and the same profile without a cap, are not held back
    const free = client(30);
    await Promise.all(
      Array.from({ length: 4 }, () =>
        new GatedLlm(free.llm, gates.for({ name: 'other' })).complete({ messages: [] }),
      ),
    );
    expect(free.most()).toBe(4);
  });

  it("a 429 rests that profile's new calls for the Retry-After; other profiles go on", async () => {
    const gates = new ModelGates();
    const a = client(5, { rateLimitFirst: 300 });
    const b = client(5);
    const t0 = Date.now();
    const first = new GatedLlm(a.llm, gates.for({ name: 'a' })).complete({ messages: [] });
    await new Promise((r) => setTimeout(r, 20));
    const notices: QueuedNotice[] = [];
    const sameProfile = new GatedLlm(a.llm, gates.for({ name: 'a' })).complete(
      { messages: [] },
      { onQueued: (n) => notices.push(n) },
    );
    const otherProfile = new GatedLlm(b.llm, gates.for({ name: 'b' })).complete({ messages: [] });
    await otherProfile;
    expect((b.startedAt[0] ?? 0) - t0).toBeLessThan(150);
    await Promise.all([first, sameProfile]);
    expect((a.startedAt[1] ?? 0) - t0).toBeGreaterThanOrEqual(280);
    expect(notices[0]).toMatchObject({ reason: 'rate_limited' });
    expect(notices[0]?.delayMs).toBeGreaterThan(200);
  });

  it('an answer says how long its call queued (llm.responded.queuedMs); one that did not, nothing', async () => {
    const gates = new ModelGates();
    const inner = client(80);
    const gate = gates.for({ name: 'slow', maxConcurrency: 1 });
    const [first, second] = await Promise.all([
      new GatedLlm(inner.llm, gate).complete({ messages: [] }),
      new GatedLlm(inner.llm, gate).complete({ messages: [] }),
    ]);
    expect(first!.queuedMs).toBeUndefined();
    // the second waited for the first's 80 ms (timers may fire a little early)
    expect(second!.queuedMs).toBeGreaterThanOrEqual(60);
    expect(second!.queuedMs).toBeLessThan(1_000);
    // a 429 rest is a queue wait too
    const rested = gates.for({ name: 'rested' });
    rested.rest(120);
    const after = await new GatedLlm(client(1).llm, rested).complete({ messages: [] });
    expect(after.queuedMs).toBeGreaterThanOrEqual(100);
  });

  it('a queued call leaves the queue when stopped', async () => {
    const gates = new ModelGates();
    const inner = client(100);
    const gate = gates.for({ name: 'one', maxConcurrency: 1 });
    const busy = new GatedLlm(inner.llm, gate).complete({ messages: [] });
    const controller = new AbortController();
    const waiting = new GatedLlm(inner.llm, gate).complete(
      { messages: [] },
      { signal: controller.signal },
    );
    controller.abort();
    await expect(waiting).rejects.toThrow();
    await busy;
    expect(gate.inFlight).toBe(0);
  });
});

describe('GatedLlm', () => {
  it('answers for its inner client everything an agent reads from one (llm.requested)', () => {
    const params: RequestParams = { temperature: 0.3, max_tokens: 512 };
    const inner: LlmClient = {
      model: 'inner-model',
      maxAttempts: 4,
      complete: () => Promise.reject(new Error('not called')),
      countTokens: () => 77,
      requestParams: () => params,
    };
    const gated = new GatedLlm(inner, new ModelGates().for({ name: 'p' }));
    expect(gated.model).toBe('inner-model');
    expect(gated.maxAttempts).toBe(4);
    expect(gated.countTokens({ messages: [] })).toBe(77);
    expect(gated.requestParams()).toBe(params);
    // every optional member of the client is answered, not left to the wrapper's defaults
    for (const key of Object.keys(inner)) expect(key in gated, key).toBe(true);
  });
});
