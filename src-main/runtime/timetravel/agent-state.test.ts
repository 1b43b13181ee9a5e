/**
 * A checkpoint's memory and loop state come from the event history alone: at every step
 * boundary of a live run (window cuts, stuck nudges and tool results included), the state
 * rebuilt from the events so far equals what the agent held; and an agent resumed from it
 * sends the model exactly that context next.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createEventStamper, type RunEvent } from '@shared/events';
import type { Message } from '@shared/domain/message';
import { ScriptedLlm, type ScriptedReply } from '../llm/scripted-llm';
import { createTerminateTool } from '../tools/terminate';
import { ok, type Tool } from '../tools/tool';
import { ToolRegistry } from '../tools/tool-registry';
import { ToolCallAgent } from '../loop/toolcall-agent';
import type { MemoryEntry } from '../loop/memory';
import { rebuildAgentState, stepBoundarySeq, toResumePoint } from './agent-state';

const echo: Tool<{ text: string }> = {
  name: 'echo',
  description: 'Echoes the text back.',
  schema: z.object({ text: z.string() }).strict(),
  execute: async ({ text }) => ok(text),
};

const script: ScriptedReply[] = [
  { content: 'first', toolCalls: [{ name: 'echo', args: { text: 'a' } }] },
  { content: 'second', toolCalls: [{ name: 'echo', args: { text: 'b' } }] },
  // the same reply twice: stuck detection leaves a nudge for the next step
  { content: 'again', toolCalls: [{ name: 'echo', args: { text: 'c' } }] },
  { content: 'again', toolCalls: [{ name: 'echo', args: { text: 'c' } }] },
  {
    content: 'fifth',
    toolCalls: [
      { name: 'echo', args: { text: 'd' } },
      { name: 'echo', args: { text: 'e' } },
    ],
  },
  { toolCalls: [{ name: 'terminate', args: { status: 'success' } }] },
];

function agentWith(
  llm: ScriptedLlm,
  events: RunEvent[],
  atBoundary?: (step: number) => void,
  maxMessages = 7,
) {
  const stamper = createEventStamper('run-live');
  return new ToolCallAgent(
    {
      name: 'toolcall',
      maxSteps: 10,
      // small window: the later steps cut whole turns from the front
      maxMessages,
      duplicateThreshold: 1,
      nextStepPrompt: 'What next?',
      systemPrompt: 'You are terse.',
    },
    { llm, tools: new ToolRegistry([echo, createTerminateTool()]) },
    {
      emit: (payload) => events.push(stamper.stamp(payload)),
      runId: 'run-live',
      atStepBoundary: async (_agent, step) => atBoundary?.(step),
    },
  );
}

const copy = (entries: readonly MemoryEntry[]) => entries.map((e) => ({ ...e }));

describe('agent state rebuilt from the history', () => {
  it('equals the live memory at every step boundary', async () => {
    const events: RunEvent[] = [];
    const live = new Map<number, { entries: MemoryEntry[]; nudge: boolean }>();
    const llm = new ScriptedLlm(script);
    const agent: ToolCallAgent = agentWith(llm, events, (step) => {
      live.set(step, { entries: copy(agent.memory.entries), nudge: false });
    });
    const result = await agent.run('the task');
    expect(result.outcome).toBe('finished');
    expect(events.some((e) => e.type === 'memory.truncated')).toBe(true);
    expect(events.some((e) => e.type === 'stuck.detected')).toBe(true);
    expect([...live.keys()]).toEqual([1, 2, 3, 4, 5, 6]);
    for (const [step, seen] of live) {
      const seq = stepBoundarySeq(events, 'toolcall', step)!;
      const state = rebuildAgentState(events, 'toolcall', seq);
      expect(state.step).toBe(step);
      expect(state.entries).toEqual(seen.entries);
      expect(state.unanswered).toEqual([]);
      // the task stays pinned through the cuts
      expect(state.pinnedIndex).toBe(0);
    }
    // step 4 repeated step 3: its nudge is due at step 5
    const at4 = rebuildAgentState(events, 'toolcall', stepBoundarySeq(events, 'toolcall', 4)!);
    expect(at4.pendingNudge).toBeDefined();
  });

  it('resumes an agent that sends exactly the checkpoint context plus the added message', async () => {
    const events: RunEvent[] = [];
    const llm = new ScriptedLlm(script);
    await agentWith(llm, events, undefined, 50).run('the task');
    const state = rebuildAgentState(events, 'toolcall', stepBoundarySeq(events, 'toolcall', 2)!);

    const forkEvents: RunEvent[] = [];
    const forkLlm = new ScriptedLlm([
      { toolCalls: [{ name: 'terminate', args: { status: 'success' } }] },
    ]);
    const added: Message = { role: 'user', content: 'Try another way.' };
    const fork = agentWith(forkLlm, forkEvents, undefined, 50);
    const result = await fork.run('the task', { resume: toResumePoint(state, [added]) });
    expect(result).toMatchObject({ outcome: 'finished', steps: 3 });
    // The original's third request is the step-2 context (+ the next-step prompt); the
    // fork's first request is the same with the added message before that prompt.
    const original = llm.requests[2]!.messages;
    const sent = forkLlm.requests[0]!.messages;
    expect(sent).toEqual([...original.slice(0, -1), added, original.at(-1)]);
    // The fork's own history holds its whole context: rebuilt, it is the parent's state.
    const forkState = rebuildAgentState(forkEvents, 'toolcall', forkEvents.at(0)!.seq + 100);
    expect(forkState.entries.slice(0, state.entries.length)).toEqual(state.entries);
    expect(forkEvents.find((e) => e.type === 'step.started')).toMatchObject({ step: 3 });
  });
});

describe('images in a rebuilt state (issue 17)', () => {
  const ref = `${'a'.repeat(64)}.png`;
  const image = { mimeType: 'image/png', data: 'iVBORw0KGgo=' };
  const events = (() => {
    const s = createEventStamper('r');
    return [
      s.stamp({ type: 'step.started', agent: 'browser', step: 1, maxSteps: 5 }),
      s.stamp({
        type: 'memory.appended',
        agent: 'browser',
        index: 0,
        message: { role: 'user', content: 'look' },
      }),
      s.stamp({
        type: 'memory.appended',
        agent: 'browser',
        index: 1,
        message: {
          role: 'user',
          content: 'Image returned by the `browser_use` call c1 (image/png).',
          imageMimeType: 'image/png',
          image: { mimeType: 'image/png', bytes: 8, ref },
        },
      }),
      s.stamp({
        type: 'memory.appended',
        agent: 'browser',
        index: 2,
        message: { role: 'user', content: 'old', imageMimeType: 'image/png' },
      }),
      s.stamp({ type: 'step.finished', agent: 'browser', step: 1, durationMs: 1 }),
    ] satisfies RunEvent[];
  })();

  it('gets a kept image back from the history, and leaves messages of older histories as text', () => {
    const asked: string[] = [];
    const state = rebuildAgentState(events, 'browser', 5, (r) => {
      asked.push(r);
      return r === ref ? image : undefined;
    });
    expect(asked).toEqual([ref]);
    expect(state.entries.map((e) => e.message.image)).toEqual([undefined, image, undefined]);
    expect(state.entries[1]?.followsTurn).toBe(true);
    // without a way to read images (a history kept in memory) the text is all there is
    const plain = rebuildAgentState(events, 'browser', 5);
    expect(plain.entries.every((e) => e.message.image === undefined)).toBe(true);
  });
});
