import { describe, expect, it } from 'vitest';
import type { RunEventPayload } from '@shared/events';
import { ScriptedLlm } from '../llm/scripted-llm';
import { createTerminateTool } from '../tools/terminate';
import { ToolRegistry } from '../tools/tool-registry';
import { ToolCallAgent } from './toolcall-agent';

function makeAgent(script: ConstructorParameters<typeof ScriptedLlm>[0], maxSteps = 5) {
  const events: RunEventPayload[] = [];
  const agent = new ToolCallAgent(
    { name: 'toolcall', maxSteps },
    { llm: new ScriptedLlm(script), tools: new ToolRegistry([createTerminateTool()]) },
    { emit: (e) => events.push(e), runId: 'run-test' },
  );
  return { agent, events };
}

describe('ToolCallAgent (first slice)', () => {
  it('emits state changes, steps and memory appends, and finishes on terminate', async () => {
    const { agent, events } = makeAgent([
      { content: 'thinking' },
      { content: null, toolCalls: [{ name: 'terminate', args: { status: 'success' } }] },
    ]);
    const result = await agent.run('say hi');
    expect(result).toMatchObject({
      outcome: 'finished',
      state: 'FINISHED',
      steps: 2,
      terminateStatus: 'success',
    });
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('state.changed');
    expect(types.filter((t) => t === 'step.started')).toHaveLength(2);
    expect(types.filter((t) => t === 'step.finished')).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: 'step.finished', step: 2 });
    expect(events.at(-2)).toMatchObject({ type: 'state.changed', from: 'RUNNING', to: 'FINISHED' });
    const appended = events.filter((e) => e.type === 'memory.appended');
    expect(appended.map((e) => (e.type === 'memory.appended' ? e.index : -1))).toEqual([
      0, 1, 2, 3,
    ]);
  });
});
