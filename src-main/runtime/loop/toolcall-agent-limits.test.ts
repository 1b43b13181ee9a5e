/**
 * ToolCallAgent against the scripted OpenAI server: tool failures that end a run
 * (timeouts in a row, a failure that must end it).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { reply } from '../llm/testing/scripted-replies';
import { ok, type Tool } from '../tools/tool';
import { call, startHarness, type Harness } from './testing/agent-harness';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe('ToolCallAgent: tools that time out (reliability S7)', () => {
  const slow: Tool<{ n: number }> = {
    name: 'slow',
    description: 'times out when n is odd',
    schema: z.object({ n: z.number() }),
    execute: async ({ n }) =>
      n % 2 === 1 ? { output: '', error: `timed out (${n})`, timedOut: true } : ok(`done ${n}`),
  };

  it('ends the run as ERROR after three timed-out calls in a row, saying what to do', async () => {
    h = await startHarness(
      [call('slow', { n: 1 }), call('slow', { n: 3 }), call('slow', { n: 5 }), reply.terminate()],
      {
        tools: [slow],
      },
    );
    const result = await h.run();
    expect(result.outcome).toBe('error');
    expect(result.error).toMatch(/3 tool calls in a row timed out/);
    expect(result.error).toMatch(/\[sandbox\] timeout/);
    expect(result.steps).toBe(3);
  });

  it('counts only timeouts in a row: a call that finishes resets the count', async () => {
    h = await startHarness(
      [
        call('slow', { n: 1 }),
        call('slow', { n: 3 }),
        call('slow', { n: 2 }),
        call('slow', { n: 5 }),
        reply.terminate(),
      ],
      { tools: [slow] },
    );
    expect((await h.run()).outcome).toBe('finished');
  });
});

describe('ToolCallAgent: a tool failure that ends the run', () => {
  it('ends the run as ERROR with the tool message, and answers the rest of the batch', async () => {
    const full: Tool<Record<string, never>> = {
      name: 'writer',
      description: 'fills the disk',
      schema: z.object({}).strict(),
      execute: async () => ({ output: '', error: 'The workspace grew too large', endsRun: true }),
    };
    h = await startHarness(
      [
        {
          toolCalls: [
            { name: 'writer', arguments: {} },
            { name: 'echo', arguments: { text: 'never' } },
          ],
        },
        reply.terminate(),
      ],
      { tools: [full] },
    );
    const result = await h.run();
    expect(result).toMatchObject({ outcome: 'error', error: 'The workspace grew too large' });
    expect(h.echoed).toEqual([]);
  });
});
