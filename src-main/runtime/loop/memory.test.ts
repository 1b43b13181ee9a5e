/**
 * Memory and its sliding window. The original's tail slice separated tool results from
 * the assistant message that called them and dropped the task (openmanus.md 7.1 c); the
 * OpenAI API then answers 400. The agent-level test runs against the scripted server,
 * which rejects exactly those message lists.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '@shared/domain/message';
import { reply } from '../llm/testing/scripted-replies';
import { Memory } from './memory';
import { assistantMessage, fromToolCalls, toolMessage, userMessage } from './messages';
import { call, startHarness, type Harness } from './testing/agent-harness';

function batch(n: number, tag: string): Message[] {
  const calls = Array.from({ length: n }, (_, i) => ({
    id: `${tag}${i}`,
    type: 'function' as const,
    function: { name: 'echo', arguments: '{}' },
  }));
  return [fromToolCalls(calls), ...calls.map((c) => toolMessage('ok', c.id, 'echo'))];
}

/** Checks a message list the way the API does: every tool result follows its call. */
function pairingErrors(messages: Message[]): string[] {
  const errors: string[] = [];
  let pending = new Set<string>();
  messages.forEach((m, i) => {
    if (m.role === 'tool') {
      if (!pending.has(m.tool_call_id ?? '')) errors.push(`orphan tool message at ${i}`);
      pending.delete(m.tool_call_id ?? '');
      return;
    }
    if (pending.size > 0) errors.push(`unanswered calls before ${i}`);
    pending = new Set((m.tool_calls ?? []).map((c) => c.id));
  });
  if (pending.size > 0) errors.push('unanswered calls at the end');
  return errors;
}

describe('Memory', () => {
  it('has the original factories for the four roles', () => {
    expect(userMessage('u')).toEqual({ role: 'user', content: 'u' });
    expect(assistantMessage(null)).toEqual({ role: 'assistant', content: '' });
    expect(toolMessage('r', 'c1', 'echo')).toEqual({
      role: 'tool',
      content: 'r',
      tool_call_id: 'c1',
      name: 'echo',
    });
    expect(fromToolCalls([])).toEqual({ role: 'assistant', content: '' });
  });

  it('fixes openmanus 7.1(c): the window never separates tool results from their call, and keeps the task', () => {
    // The original, with max 5, left ['tool','tool','user','assistant','user']: an orphan.
    for (let max = 2; max <= 12; max++) {
      const memory = new Memory(max);
      memory.pinTask(userMessage('the task'));
      for (let turn = 0; turn < 12; turn++) {
        for (const m of batch((turn % 3) + 1, `t${turn}_`)) memory.add(m);
        memory.add(userMessage(`next step ${turn}`));
        const messages = memory.messages;
        expect(pairingErrors(messages), `max ${max} turn ${turn}`).toEqual([]);
        expect(messages[0]).toEqual(userMessage('the task'));
      }
    }
  });

  it('reports what leaves the window, and indexes stay stable and are never reused', () => {
    const dropped: number[][] = [];
    const appended: number[] = [];
    const memory = new Memory(4, {
      appended: (index) => appended.push(index),
      truncated: (indexes, window) => {
        expect(window).toBe(4);
        dropped.push(indexes);
      },
    });
    memory.pinTask(userMessage('task'));
    for (const m of batch(2, 'a')) memory.add(m);
    memory.add(userMessage('u'));
    memory.add(assistantMessage('x'));
    expect(appended).toEqual([0, 1, 2, 3, 4, 5]);
    // the assistant call (1) and both its results (2, 3) leave together
    expect(dropped).toEqual([[1, 2, 3]]);
    expect(memory.entries.map((e) => e.index)).toEqual([0, 4, 5]);
    memory.add(assistantMessage('y'));
    expect(memory.entries.map((e) => e.index)).toEqual([0, 4, 5, 6]);
    expect(memory.nextMessageIndex).toBe(7);
  });

  it('keeps a turn larger than the window whole rather than breaking it', () => {
    const memory = new Memory(3);
    memory.pinTask(userMessage('task'));
    for (const m of batch(5, 'big')) memory.add(m);
    expect(pairingErrors(memory.messages)).toEqual([]);
    expect(memory.size).toBe(7);
  });

  it('a second task becomes the pinned one; the first may leave the window', () => {
    const memory = new Memory(3);
    memory.pinTask(userMessage('first'));
    memory.add(assistantMessage('a'));
    memory.pinTask(userMessage('second'));
    memory.add(assistantMessage('b'));
    memory.add(assistantMessage('c'));
    expect(memory.messages.map((m) => m.content)).toEqual(['second', 'b', 'c']);
  });
});

describe('Memory in a run', () => {
  let h: Harness | null = null;
  afterEach(async () => {
    await h?.close();
    h = null;
  });

  it('fixes openmanus 7.1(c): a long run with a small window never sends an orphan tool message', async () => {
    // Batches of 1-3 calls; the scripted server answers 400 to any broken pairing.
    h = await startHarness(
      (r) => {
        if (r.index >= 15) return reply.terminate();
        const n = (r.index % 3) + 1;
        return {
          content: null,
          toolCalls: Array.from({ length: n }, (_, i) => ({
            name: 'echo',
            arguments: { text: `${r.index}.${i}` },
          })),
        };
      },
      { settings: { maxMessages: 5, maxSteps: 30, nextStepPrompt: 'continue' } },
    );
    const result = await h.run('the original task');
    expect(result).toMatchObject({ outcome: 'finished', steps: 16 });
    for (const request of h.server.requests) {
      expect(request.rejected).toBeUndefined();
      expect(request.messages.find((m) => m.role === 'user')?.content).toBe('the original task');
    }
    const truncations = h.of('memory.truncated');
    expect(truncations.length).toBeGreaterThan(5);
    const dropped = truncations.flatMap((t) => t.dropped);
    expect(new Set(dropped).size).toBe(dropped.length);
    expect(dropped).not.toContain(0);
  });

  it('a second run on the same agent keeps the history and pins the new task', async () => {
    h = await startHarness([reply.terminate(), call('echo', { text: 'again' }), reply.terminate()]);
    await h.run('first task');
    await h.run('second task');
    const users = h.server.answered[2]!.messages.filter((m) => m.role === 'user');
    expect(users.map((m) => m.content)).toEqual(['first task', 'second task']);
  });
});
