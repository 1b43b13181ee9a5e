import { describe, expect, it } from 'vitest';
import { createEventStamper, type RunEvent, type RunEventPayload } from './events';
import { RequestToolBook, messagesAtRequest, requestBody, requestsOfRun } from './model-request';

const tool = {
  type: 'function' as const,
  function: { name: 'bash', description: 'run', parameters: { type: 'object' } },
};

function run(payloads: RunEventPayload[]): RunEvent[] {
  const stamper = createEventStamper('r');
  return payloads.map((p) => stamper.stamp(p));
}

const requested = (extra: Partial<RunEventPayload & { type: 'llm.requested' }> = {}) =>
  ({
    type: 'llm.requested',
    agent: 'a',
    step: 1,
    model: 'm',
    messageCount: 2,
    inputTokens: 0,
    ...extra,
  }) as RunEventPayload;

describe('model-request', () => {
  it('resolves a tool list sent by hash from the request that carried it', () => {
    const book = new RequestToolBook();
    book.note({ toolsHash: 'h1', tools: [tool] });
    expect(book.toolsOf({ toolsHash: 'h1' })).toEqual([tool]);
    expect(book.toolsOf({ toolsHash: 'unknown' })).toBeUndefined();
    expect(book.toolsOf({})).toBeUndefined();
  });

  it('rebuilds the messages: system, memory less what was dropped, the nudge', () => {
    const events = run([
      requested({ system: 'be brief', messageCount: 1 }),
      {
        type: 'memory.appended',
        agent: 'a',
        index: 0,
        message: { role: 'user', content: 'task' },
      },
      {
        type: 'memory.appended',
        agent: 'b',
        index: 0,
        message: { role: 'user', content: 'other agent' },
      },
      {
        type: 'memory.appended',
        agent: 'a',
        index: 1,
        message: { role: 'assistant', content: 'ok' },
      },
      { type: 'memory.truncated', agent: 'a', dropped: [0], window: 1 },
      requested({ step: 2, nudge: 'change strategy', toolsHash: 'h', tools: [tool] }),
    ]);
    const second = events.at(-1) as RunEvent & { type: 'llm.requested' };
    expect(messagesAtRequest(events, second)).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'change strategy' },
    ]);
    const [, last] = requestsOfRun(events);
    expect(last!.body['tools']).toEqual([tool]);
    expect(last!.body['tool_choice']).toBe('auto');
  });

  it('shows an old request (no params, no tools) as what it can: model and messages', () => {
    expect(requestBody({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
    });
  });
});
