/**
 * ToolCallAgent against the scripted OpenAI server: tool_choice modes, the text-reply
 * policy, special tools mid-batch, unknown tools, tools that throw, truncated calls,
 * observation caps, retries and mid-stream failures as the run sees them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { reply } from '../llm/testing/scripted-replies';
import type { ScriptedServerReply } from '../llm/testing/scripted-openai-server';
import { ok, type Tool } from '../tools/tool';
import { call, startHarness, type Harness } from './testing/agent-harness';
import { REQUIRED_REPROMPT, TEXT_REPLY_REPROMPT } from './loop-limits';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const lastUser = (h: Harness, index: number) =>
  h.server.answered[index]!.messages.filter((m) => m.role === 'user').at(-1)?.content;

describe('ToolCallAgent: the loop', () => {
  it('emits state changes, steps, model calls, tool calls and memory appends in order', async () => {
    h = await startHarness([call('echo', { text: 'hi' }, 'let me echo'), reply.terminate()]);
    const result = await h.run('say hi');
    expect(result).toMatchObject({ outcome: 'finished', steps: 2, terminateStatus: 'success' });
    const types = h.events.map((e) => e.type).filter((t) => t !== 'llm.delta');
    expect(types).toEqual([
      'state.changed',
      'memory.appended', // task
      'step.started',
      'llm.requested',
      'llm.responded',
      'memory.appended', // assistant + call
      'tool.started',
      'tool.finished',
      'memory.appended', // tool result
      'step.finished',
      'step.started',
      'llm.requested',
      'llm.responded',
      'memory.appended',
      'tool.started',
      'tool.finished',
      'memory.appended',
      'state.changed',
      'step.finished',
    ]);
    expect(h.of('memory.appended').map((e) => e.index)).toEqual([0, 1, 2, 3, 4]);
    expect(h.of('llm.requested')[0]).toMatchObject({ model: 'gpt-test', messageCount: 1 });
    expect(h.of('llm.requested')[0]!.inputTokens).toBeGreaterThan(0);
    expect(
      h
        .of('llm.delta')
        .map((e) => e.text)
        .join(''),
    ).toBe('let me echo');
    expect(h.of('tool.finished')[0]).toMatchObject({ ok: true, output: 'hi', name: 'echo' });
    expect(h.agent.memory.messages[2]).toMatchObject({
      role: 'tool',
      content: 'Observed output of cmd `echo` executed:\nhi',
    });
  });

  it('sends the system prompt first and the tool declarations with every call', async () => {
    h = await startHarness([reply.terminate()], { settings: { systemPrompt: 'You are terse.' } });
    await h.run();
    const sent = h.server.answered[0]!;
    expect(sent.messages[0]).toEqual({ role: 'system', content: 'You are terse.' });
    expect((sent.tools as { function: { name: string } }[]).map((t) => t.function.name)).toEqual([
      'echo',
      'terminate',
    ]);
  });

  it('emits llm.retried for each retry and still finishes', async () => {
    h = await startHarness([reply.serverError(502), reply.rateLimited('0'), reply.terminate()]);
    const result = await h.run();
    expect(result.outcome).toBe('finished');
    expect(h.of('llm.retried').map((e) => [e.attempt, e.status])).toEqual([
      [1, 502],
      [2, 429],
    ]);
  });

  it('llm.requested says how many attempts the call may take (max_retries + 1, issue 17)', async () => {
    h = await startHarness([reply.terminate()], { profile: { maxRetries: 3 } });
    await h.run();
    expect(h.of('llm.requested')[0]).toMatchObject({ maxAttempts: 4 });
  });

  it('fixes openmanus 7.2 item 1: a persistent 500 ends the run as ERROR with a clear message, not a crash', async () => {
    h = await startHarness(() => reply.serverError(500), { profile: { maxRetries: 2 } });
    const result = await h.run();
    expect(result).toMatchObject({ outcome: 'error', state: 'ERROR' });
    expect(result.error).toMatch(/provider failed \(500\).*gave up after 3 attempts/);
    expect(h.server.answered).toHaveLength(3);
  });

  it('L7: a stream cut mid-answer ends the run as ERROR and keeps the partial text in memory', async () => {
    h = await startHarness([
      { content: 'I will now look at the files', chunkSize: 5, cutAfterChunks: 4 },
    ]);
    const result = await h.run();
    expect(result.outcome).toBe('error');
    expect(result.error).toMatch(/lost in the middle of its answer/);
    expect(h.agent.memory.messages.at(-1)).toEqual({
      role: 'assistant',
      content: 'I will now look',
    });
  });
});

it('a stop mid-stream ends the run as cancelled and keeps the text streamed so far', async () => {
  h = await startHarness([
    { content: 'one two three four five six seven', chunkSize: 4, chunkDelayMs: 80 },
  ]);
  const controller = new AbortController();
  const pending = h.run('task', controller.signal);
  while (h.of('llm.delta').length === 0) await new Promise((r) => setTimeout(r, 10));
  controller.abort();
  const result = await pending;
  expect(result.outcome).toBe('cancelled');
  const kept = h.agent.memory.messages.at(-1)!;
  expect(kept.role).toBe('assistant');
  expect('one two three four five six seven'.startsWith(kept.content!)).toBe(true);
  expect(kept.content!.length).toBeGreaterThan(0);
});

describe('ToolCallAgent: replies without a tool call', () => {
  it('fixes openmanus 7.2 item 2: a text-only reply gets one reprompt, then finishes instead of chatting until max steps', async () => {
    // The original answered text-only replies with nothing and looped to max_steps.
    h = await startHarness(() => reply.text('Hello! How can I help?'), {
      settings: { maxSteps: 20 },
    });
    const result = await h.run('hi');
    expect(result).toMatchObject({ outcome: 'finished', state: 'FINISHED', steps: 2 });
    expect(h.server.answered).toHaveLength(2);
    expect(lastUser(h, 1)).toBe(TEXT_REPLY_REPROMPT);
  });

  it('text_reply_policy reprompt_once: a tool call after the reprompt carries on', async () => {
    h = await startHarness([
      reply.text('thinking...'),
      call('echo', { text: 'x' }),
      reply.text('done?'),
      reply.terminate(),
    ]);
    const result = await h.run();
    expect(result).toMatchObject({ outcome: 'finished', steps: 4, terminateStatus: 'success' });
    // the streak restarts after a tool call: the second text reply is reprompted again
    expect(lastUser(h, 3)).toBe(TEXT_REPLY_REPROMPT);
  });

  it('text_reply_policy finish: the first text-only reply is the answer', async () => {
    h = await startHarness([reply.text('The answer is 42.')], {
      settings: { textReplyPolicy: 'finish' },
    });
    const result = await h.run();
    expect(result).toMatchObject({ outcome: 'finished', steps: 1 });
    expect(result.terminateStatus).toBeUndefined();
  });

  it('text_reply_policy continue: the original behaviour, the loop goes on', async () => {
    h = await startHarness(
      (r) => (r.index < 3 ? reply.text(`musing ${r.index}`) : reply.terminate()),
      { settings: { textReplyPolicy: 'continue', nextStepPrompt: 'What next?' } },
    );
    const result = await h.run();
    expect(result).toMatchObject({ outcome: 'finished', steps: 4 });
    expect(h.agent.memory.messages.filter((m) => m.content === TEXT_REPLY_REPROMPT)).toHaveLength(
      0,
    );
  });

  it('fixes openmanus 7.2 item 5: tool_choice required reprompts when no tool is called instead of crashing', async () => {
    h = await startHarness([reply.text('I refuse to use tools'), reply.terminate()], {
      settings: { toolChoice: 'required' },
    });
    const result = await h.run();
    // The original raised ValueError out of run().
    expect(result).toMatchObject({ outcome: 'finished', steps: 2 });
    expect(h.server.answered[0]!.toolChoice).toBe('required');
    expect(lastUser(h, 1)).toBe(REQUIRED_REPROMPT);
  });

  it('tool_choice required: three replies in a row without a tool call end the run as ERROR', async () => {
    h = await startHarness(() => reply.text('no'), { settings: { toolChoice: 'required' } });
    const result = await h.run();
    expect(result).toMatchObject({ outcome: 'error', steps: 3 });
    expect(result.error).toMatch(/without calling a tool although tool_choice is "required"/);
  });

  it('tool_choice none: the reply is the answer, and a call made anyway is answered but not run', async () => {
    h = await startHarness([call('echo', { text: 'sneaky' }, 'here is my answer')], {
      settings: { toolChoice: 'none' },
    });
    const result = await h.run();
    expect(result).toMatchObject({ outcome: 'finished', steps: 1 });
    expect(h.server.answered[0]!.toolChoice).toBe('none');
    expect(h.echoed).toEqual([]);
    expect(h.of('tool.finished')[0]).toMatchObject({
      ok: false,
      error: expect.stringMatching(/disabled/),
    });
  });

  it('an empty reply is reprompted like a text reply, and a second one ends the run as an error, never as finished', async () => {
    h = await startHarness(() => ({ content: '' }));
    const result = await h.run();
    expect(result).toMatchObject({ outcome: 'error', steps: 2 });
    expect(result.error).toMatch(/neither text nor a tool call/);
    expect(h.agent.memory.messages[1]).toEqual({ role: 'assistant', content: '' });
  });
});

describe('ToolCallAgent: tool calls', () => {
  it('fixes openmanus 7.2 item 6: terminate mid-batch ends the run; later calls are answered, not executed', async () => {
    h = await startHarness([
      {
        content: null,
        toolCalls: [
          { name: 'echo', arguments: { text: 'before' } },
          { name: 'terminate', arguments: { status: 'success' } },
          { name: 'echo', arguments: { text: 'after' } },
        ],
      },
    ]);
    const result = await h.run();
    // The original executed the calls after terminate too.
    expect(h.echoed).toEqual(['before']);
    expect(result).toMatchObject({ outcome: 'finished', terminateStatus: 'success', steps: 1 });
    const finished = h.of('tool.finished');
    expect(finished.map((e) => [e.name, e.ok])).toEqual([
      ['echo', true],
      ['terminate', true],
      ['echo', false],
    ]);
    expect(finished[2]!.error).toMatch(/Not executed/);
  });

  it('custom special tools end the run; a failed special call does not', async () => {
    const finish: Tool<{ summary: string }> = {
      name: 'finish_task',
      description: 'done',
      schema: z.object({ summary: z.string() }),
      execute: async ({ summary }) => ok(summary),
    };
    h = await startHarness(
      [call('finish_task', { nope: 1 }), call('finish_task', { summary: 'ok' })],
      {
        tools: [finish],
        settings: { specialToolNames: ['finish_task'] },
      },
    );
    const result = await h.run();
    expect(result).toMatchObject({ outcome: 'finished', steps: 2 });
  });

  it('L2: an unknown tool is an error observation and the run continues', async () => {
    h = await startHarness([
      call('does_not_exist', {}),
      call('echo', { text: 'fine' }),
      reply.terminate(),
    ]);
    const result = await h.run();
    expect(result.outcome).toBe('finished');
    const first = h.of('tool.finished')[0]!;
    expect(first).toMatchObject({ ok: false, name: 'does_not_exist' });
    expect(first.error).toMatch(/Unknown tool 'does_not_exist'.*echo, terminate/);
    expect(h.echoed).toEqual(['fine']);
  });

  it('L2: three unknown tools in a row end the run as ERROR "model repeatedly called unknown tools"', async () => {
    const names = ['browse', 'search', 'python', 'shell', 'fly'];
    h = await startHarness([
      call(names[0]!, {}),
      {
        content: null,
        toolCalls: [
          { name: names[1]!, arguments: {} },
          { name: names[2]!, arguments: {} },
          { name: 'echo', arguments: { text: 'x' } },
        ],
      },
    ]);
    const result = await h.run();
    expect(result).toMatchObject({ outcome: 'error', state: 'ERROR' });
    expect(result.error).toMatch(/model repeatedly called unknown tools/);
    expect(h.echoed).toEqual([]);
    expect(h.of('tool.finished').map((e) => e.ok)).toEqual([false, false, false, false]);
  });

  it('a tool that throws becomes an error observation and the run continues', async () => {
    const broken: Tool<Record<string, never>> = {
      name: 'broken',
      description: 'always throws',
      schema: z.object({}),
      execute: async () => {
        throw new Error('disk on fire');
      },
    };
    h = await startHarness([call('broken', {}), reply.terminate()], { tools: [broken] });
    const result = await h.run();
    expect(result.outcome).toBe('finished');
    expect(h.agent.memory.messages[2]?.content).toBe("Error: Tool 'broken' failed: disk on fire");
  });

  it('L10: a reply cut off at max_tokens during a tool call is answered as invalid arguments, not executed', async () => {
    h = await startHarness([
      {
        content: null,
        toolCalls: [{ name: 'echo', arguments: '{"text": "a long text that was cu' }],
        finishReason: 'length',
      },
      {
        content: null,
        toolCalls: [{ name: 'echo', arguments: { text: 'complete' } }],
        finishReason: 'length',
      },
      reply.terminate(),
    ]);
    const result = await h.run();
    expect(result.outcome).toBe('finished');
    expect(h.echoed).toEqual([]);
    const errors = h.of('tool.finished').slice(0, 2);
    for (const e of errors) expect(e.error).toMatch(/cut off at the token limit/);
  });

  it('caps long observations at max_observe with a visible marker of what was cut', async () => {
    const big: Tool<Record<string, never>> = {
      name: 'big',
      description: 'floods',
      schema: z.object({}),
      execute: async () => ok('A'.repeat(50_000) + 'THE END'),
    };
    h = await startHarness([call('big', {}), reply.terminate()], {
      tools: [big],
      settings: { maxObserve: 1000 },
    });
    await h.run();
    const observation = h.agent.memory.messages[2]!.content!;
    expect(observation.length).toBeLessThanOrEqual(1000);
    expect(observation).toMatch(/\[\.\.\. \d+ characters cut: observation capped at 1000 \.\.\.\]/);
    expect(observation.endsWith('THE END')).toBe(true);
    expect(h.of('tool.finished')[0]!.output.length).toBeLessThanOrEqual(1000);
  });

  it('makes duplicate and missing call ids unique, so every result pairs with its call', async () => {
    h = await startHarness([
      {
        content: null,
        toolCalls: [
          { name: 'echo', arguments: { text: 'a' }, id: 'same' },
          { name: 'echo', arguments: { text: 'b' }, id: 'same' },
        ],
      },
      { content: null, toolCalls: [{ name: 'echo', arguments: { text: 'c' }, id: 'same' }] },
      reply.terminate(),
    ]);
    const result = await h.run();
    expect(result.outcome).toBe('finished');
    const ids = h.of('tool.started').map((e) => e.toolCallId);
    expect(new Set(ids).size).toBe(ids.length);
    const announced = h.of('llm.responded').flatMap((e) => e.toolCalls.map((c) => c.id));
    expect(announced).toEqual(ids.concat(announced.slice(ids.length)));
  });

  it('puts a tool image on a user message after the batch, never on the tool message', async () => {
    const shot: Tool<Record<string, never>> = {
      name: 'screenshot',
      description: 'takes a picture',
      schema: z.object({}),
      execute: async () =>
        ok('took it', { image: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }),
    };
    h = await startHarness([call('screenshot', {}), reply.terminate()], { tools: [shot] });
    await h.run();
    const sent = h.server.answered[1]!.messages;
    const tool = sent.find((m) => m.role === 'tool')!;
    expect(typeof tool.content).toBe('string');
    expect(sent.at(-1)).toMatchObject({ role: 'user' });
    expect(JSON.stringify(sent.at(-1)!.content)).toContain('data:image/png;base64,iVBORw0KGgo=');
  });
});

export type { ScriptedServerReply };
