import { describe, expect, it } from 'vitest';
import type { Message } from '@shared/domain/message';
import type { ToolSpec } from './llm-client';
import { estimateRequestTokens } from './token-estimate';

const window = (n: number): Message[] =>
  Array.from({ length: n }, (_, i) => ({
    role: i % 2 ? ('assistant' as const) : ('user' as const),
    content: `message ${i}: some words to count`,
  }));

/** The array as the estimate sees it, counting how many of its elements are read. */
function counted(messages: Message[]): { messages: Message[]; reads: () => number } {
  let reads = 0;
  const proxy = new Proxy(messages, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { messages: proxy, reads: () => reads };
}

describe('estimateRequestTokens (issue 27: the step estimates the same request three times)', () => {
  it('walks a request’s window once, however often the same request is estimated', () => {
    const { messages, reads } = counted(window(100));
    const first = estimateRequestTokens({ messages });
    const walked = reads();
    expect(walked).toBeGreaterThanOrEqual(100);
    expect(estimateRequestTokens({ messages })).toBe(first);
    expect(estimateRequestTokens({ messages })).toBe(first);
    // only the last message is looked at again, to see the window did not change
    expect(reads() - walked).toBeLessThanOrEqual(2);
  });

  it('counts again when the same array gained or lost a message, or the tools changed', () => {
    const list = window(10);
    const before = estimateRequestTokens({ messages: list });
    list.push({ role: 'user', content: 'one more message with several more words in it' });
    const grown = estimateRequestTokens({ messages: list });
    expect(grown).toBeGreaterThan(before);
    expect(grown).toBe(estimateRequestTokens({ messages: [...list] }));
    list.splice(0, 1);
    expect(estimateRequestTokens({ messages: list })).toBe(
      estimateRequestTokens({ messages: [...list] }),
    );
    const tools: ToolSpec[] = [
      {
        type: 'function',
        function: { name: 'bash', description: 'run a command in the sandbox', parameters: {} },
      },
    ];
    expect(estimateRequestTokens({ messages: list, tools })).toBeGreaterThan(
      estimateRequestTokens({ messages: list }),
    );
  });
});
