/**
 * The UI's "context at this step" must be exactly what the model received. This runs a
 * real ToolCallAgent (system prompt, next-step prompt, a stuck nudge, a memory window
 * that drops turns) against the scripted model, folds its events into the renderer's
 * timeline model, and compares, step by step, the derived context with the request the
 * model actually got.
 */
import { describe, expect, it } from 'vitest';
import { createEventStamper, type RunEvent } from '@shared/events';
import { ToolCallAgent } from '../runtime/loop/toolcall-agent';
import { ScriptedLlm } from '../runtime/llm/scripted-llm';
import { createTerminateTool } from '../runtime/tools/terminate';
import { ToolRegistry } from '../runtime/tools/tool-registry';
import { applyTimelineEvents } from '../../src-renderer/store/timeline/apply-events';
import { contextAtStep } from '../../src-renderer/store/timeline/context-at-step';
import { createTimeline } from '../../src-renderer/store/timeline/model';
import type { StepItem } from '../../src-renderer/store/timeline/types';

describe('context at step (runtime events -> UI model)', () => {
  it('shows every message of every request, system prompt and stuck nudge included', async () => {
    // The same reply three times (stuck), then a different one, then terminate.
    const llm = new ScriptedLlm((_request, call) =>
      call < 3
        ? { content: 'Let me think about it.' }
        : call === 3
          ? { content: 'A new idea.', toolCalls: [{ name: 'nope', args: {} }] }
          : { content: null, toolCalls: [{ name: 'terminate', args: { status: 'success' } }] },
    );
    const stamper = createEventStamper('run-ctx');
    const events: RunEvent[] = [];
    const agent = new ToolCallAgent(
      {
        name: 'manus',
        maxSteps: 10,
        maxMessages: 6,
        systemPrompt: 'You are a test agent.',
        nextStepPrompt: 'What next?',
        textReplyPolicy: 'continue',
      },
      { llm, tools: new ToolRegistry([createTerminateTool()]) },
      { emit: (e) => events.push(stamper.stamp(e)), runId: 'run-ctx' },
    );
    await agent.run('Solve it');

    const model = applyTimelineEvents(createTimeline(), events);
    const steps = model.items.filter((i): i is StepItem => i.kind === 'step');
    expect(steps).toHaveLength(llm.requests.length);
    let sawNudge = false;
    steps.forEach((step, i) => {
      const context = contextAtStep(model, step)!;
      const shown = [
        ...(context.system !== undefined ? [{ role: 'system', content: context.system }] : []),
        ...context.messages.map((m) => ({ role: m.role, content: m.content })),
        ...(context.nudge !== undefined ? [{ role: 'user', content: context.nudge }] : []),
      ];
      const sent = llm.requests[i]!.messages.map((m) => ({ role: m.role, content: m.content }));
      expect(shown, `step ${step.step}`).toEqual(sent);
      expect(context.notInMemory).toBe(0);
      sawNudge ||= context.nudge !== undefined;
    });
    expect(sawNudge).toBe(true);
    // The system prompt travels once in the events, not once per step.
    const systems = events.filter((e) => e.type === 'llm.requested' && e.system !== undefined);
    expect(systems).toHaveLength(1);
  });
});
