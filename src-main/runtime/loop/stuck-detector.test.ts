/**
 * Stuck detection in runs against the scripted server (openmanus.md 7.1 d, e) and the
 * detector's rules on their own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { reply } from '../llm/testing/scripted-replies';
import { Memory } from './memory';
import { assistantMessage, fromToolCalls, toolMessage, userMessage } from './messages';
import { canonicalArguments, detectStuck, STUCK_NUDGE } from './stuck-detector';
import { call, startHarness, type Harness } from './testing/agent-harness';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const nudgesIn = (h: Harness, request: number) =>
  h.server.answered[request]!.messages.filter(
    (m) => typeof m.content === 'string' && m.content.includes(STUCK_NUDGE),
  ).length;

describe('stuck detection in a run', () => {
  it('fixes openmanus 7.1(d): identical tool calls with empty content are detected', async () => {
    // Six identical `echo` calls with no content: the original detected 0 of them.
    h = await startHarness(
      (r) => (r.index < 6 ? call('echo', { text: 'ls' }) : reply.terminate()),
      {
        settings: { maxSteps: 10 },
      },
    );
    await h.run();
    const hits = h.of('stuck.detected');
    expect(hits.length).toBeGreaterThanOrEqual(4);
    expect(hits[0]).toMatchObject({ kind: 'tool_calls', step: 3, count: 3 });
    // memory: 0 task, 1 call, 2 result, 3 call, 4 result, 5 call ...
    expect(hits[0]!.duplicateOf).toEqual([1, 3]);
    expect(hits.at(-1)!.duplicateOf).toEqual([1, 3, 5, 7, 9]);
  });

  it('fixes openmanus 7.1(d): repeats are found across a tool step, with canonical arguments', async () => {
    // Same thought and same call (keys in another order) with a tool result in between:
    // the original compared the tool result (the last message) and never matched.
    const replies = [
      { content: 'Let me check', toolCalls: [{ name: 'echo', arguments: '{"text":"a"}' }] },
      { content: 'Let me check', toolCalls: [{ name: 'echo', arguments: '{ "text" : "a" }' }] },
      { content: 'Let me check', toolCalls: [{ name: 'echo', arguments: '{"text":"a"}' }] },
      reply.terminate(),
    ];
    h = await startHarness(replies);
    await h.run();
    const hits = h.of('stuck.detected');
    expect(hits.map((e) => [e.kind, e.step, e.count])).toEqual([
      ['content', 3, 3],
      ['tool_calls', 3, 3],
    ]);
  });

  it('the original rule: the same content repeated duplicate_threshold times is stuck', async () => {
    h = await startHarness(
      (r) => (r.index < 4 ? call('echo', { text: `${r.index}` }, 'Same plan') : reply.terminate()),
      {
        settings: { duplicateThreshold: 3 },
      },
    );
    await h.run();
    const hits = h.of('stuck.detected');
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ kind: 'content', step: 4, count: 4 });
  });

  it('fixes openmanus 7.1(e): the nudge goes with the next request only and never stacks', async () => {
    // The original prefixed the prompt once per hit, permanently: 4 copies after 6 steps.
    h = await startHarness(
      (r) => (r.index < 6 ? call('echo', { text: 'same' }, 'Same thought') : reply.terminate()),
      { settings: { maxSteps: 10, nextStepPrompt: 'What next?' } },
    );
    await h.run();
    const counts = h.server.answered.map((_, i) => nudgesIn(h!, i));
    // hits after steps 3..6: requests 4..7 carry one nudge each, the others none
    expect(counts).toEqual([0, 0, 0, 1, 1, 1, 1]);
    expect(h.agent.memory.messages.some((m) => m.content?.includes(STUCK_NUDGE))).toBe(false);
    expect(h.server.answered[3]!.messages.at(-1)).toEqual({ role: 'user', content: STUCK_NUDGE });
    // the base prompt is never changed
    for (const request of h.server.answered) {
      for (const m of request.messages) {
        if (
          m.role === 'user' &&
          m.content !== STUCK_NUDGE &&
          String(m.content).includes('What next?')
        ) {
          expect(m.content).toBe('What next?');
        }
      }
    }
  });

  it('L11: four identical action + observation pairs trigger stuck handling', async () => {
    h = await startHarness(
      (r) => (r.index < 4 ? call('echo', { text: 'poll' }) : reply.terminate()),
      {
        settings: { duplicateThreshold: 3 },
      },
    );
    await h.run();
    expect(h.of('stuck.detected').map((e) => e.step)).toEqual([4]);
    expect(nudgesIn(h, 4)).toBe(1);
  });
});

describe('detectStuck', () => {
  function memoryOf(messages: ReturnType<typeof userMessage>[]) {
    const memory = new Memory(100);
    let last = -1;
    for (const m of messages) {
      const index = memory.add(m);
      if (m.role === 'assistant') last = index;
    }
    return { entries: memory.entries, last };
  }
  const echo = (text: string) =>
    fromToolCalls([
      {
        id: `c${text}${Math.random()}`,
        type: 'function',
        function: { name: 'echo', arguments: JSON.stringify({ text }) },
      },
    ]);

  it('ignores empty content and different calls; counts non-consecutive repeats like the original', () => {
    const { entries, last } = memoryOf([
      userMessage('task'),
      assistantMessage('A'),
      assistantMessage('B'),
      assistantMessage('A'),
      assistantMessage('A'),
    ]);
    expect(detectStuck(entries, last, 2)).toEqual([
      { kind: 'content', count: 3, duplicateOf: [1, 3] },
    ]);
    const empty = memoryOf([
      userMessage('t'),
      assistantMessage(''),
      assistantMessage(''),
      assistantMessage(''),
    ]);
    expect(detectStuck(empty.entries, empty.last, 2)).toEqual([]);
    const calls = memoryOf([
      userMessage('t'),
      echo('a'),
      toolMessage('r', 'x', 'echo'),
      echo('b'),
      echo('a'),
    ]);
    expect(detectStuck(calls.entries, calls.last, 2)).toEqual([]);
  });

  it('canonicalises arguments: key order and spacing do not matter, values do', () => {
    expect(canonicalArguments('{"b": 1, "a": {"y": 2, "x": 1}}')).toBe(
      canonicalArguments('{"a":{"x":1,"y":2},"b":1}'),
    );
    expect(canonicalArguments('{"a":1}')).not.toBe(canonicalArguments('{"a":2}'));
    expect(canonicalArguments('  not json ')).toBe('not json');
  });
});
