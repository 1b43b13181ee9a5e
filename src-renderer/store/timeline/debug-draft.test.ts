import { describe, expect, it } from 'vitest';
import { RunScript } from '../../testing/run-script';
import { applyTimelineEvents } from './apply-events';
import { contextAtStep } from './context-at-step';
import { createTimeline } from './model';

const call = (id: string, args: string) => ({
  id,
  type: 'function' as const,
  function: { name: 'bash', arguments: args },
});

describe('the debugger in the timeline', () => {
  it('a pause, its edits and the resume become rows; the debug view follows the pause', () => {
    const script = new RunScript('r1', 'manus').start('fix it');
    script.emit({
      type: 'breakpoints.changed',
      breakpoints: [
        { id: 'bp-1', condition: { kind: 'tool', tool: 'bash' }, spec: 'tool:bash', origin: 'run' },
      ],
      approvals: [],
      by: 'ui',
    });
    script.emit({ type: 'step.started', agent: 'manus', step: 1, maxSteps: 20 });
    script.emit({
      type: 'run.paused',
      agent: 'manus',
      step: 1,
      point: 'before_tools',
      reasons: [
        {
          kind: 'breakpoint',
          breakpointId: 'bp-1',
          condition: 'tool:bash',
          detail: 'manus is about to run bash (c1)',
        },
      ],
      calls: [call('c1', '{"command":"rm -rf /"}'), call('c2', '{"command":"ls"}')],
    });
    let model = applyTimelineEvents(createTimeline(), script.events.splice(0));
    expect(model.debug?.paused).toMatchObject({ point: 'before_tools', step: 1 });
    expect(model.debug?.breakpoints.map((b) => b.spec)).toEqual(['tool:bash']);

    script.emit({
      type: 'run.edited',
      agent: 'manus',
      step: 1,
      by: 'ui',
      edit: {
        kind: 'edit_call',
        toolCallId: 'c1',
        name: 'bash',
        before: '{"command":"rm -rf /"}',
        after: '{"command":"rm -rf ./build"}',
      },
    });
    script.emit({
      type: 'run.edited',
      agent: 'manus',
      step: 1,
      by: 'ui',
      edit: { kind: 'skip_call', toolCallId: 'c2', name: 'bash', observation: 'not now' },
    });
    model = applyTimelineEvents(model, script.events.splice(0));
    expect(model.debug?.calls.map((c) => c.function.arguments)).toEqual([
      '{"command":"rm -rf ./build"}',
      '{"command":"ls"}',
    ]);
    expect(model.debug?.decisions).toEqual({ c1: 'edited', c2: 'skipped' });

    script.emit({
      type: 'run.resumed',
      agent: 'manus',
      step: 1,
      mode: 'continue',
      by: 'ui',
      pausedMs: 2500,
    });
    model = applyTimelineEvents(model, script.events.splice(0));
    expect(model.debug?.paused).toBeNull();
    const rows = model.items.filter((i) => i.kind === 'debug');
    expect(rows.map((r) => r.kind === 'debug' && [r.action, r.text])).toEqual([
      ['breakpoints', 'Breakpoints: bp-1 tool:bash'],
      [
        'paused',
        'Paused before the tool calls: breakpoint bp-1 (tool:bash): manus is about to run bash (c1)',
      ],
      [
        'edited',
        'You: edited the arguments of bash (c1): {"command":"rm -rf /"} → {"command":"rm -rf ./build"}',
      ],
      ['edited', 'You: skipped bash (c2), telling the model: not now'],
      ['resumed', 'Resumed after 2.5 s'],
    ]);
    // rows sit in the step where they happened
    expect(rows.slice(1).every((r) => r.step === 1)).toBe(true);
  });

  it('an edited message shows its new text, and context at an earlier step still shows the old one', () => {
    const script = new RunScript('r2', 'manus').start('the original task');
    script.addStep({
      content: 'first',
      calls: [{ name: 'bash', args: { command: 'ls' }, output: 'a' }],
    });
    script.endStep();
    script.emit({ type: 'step.started', agent: 'manus', step: 2, maxSteps: 20 });
    script.emit({
      type: 'run.paused',
      agent: 'manus',
      step: 2,
      point: 'before_model',
      reasons: [{ kind: 'user' }],
    });
    script.emit({
      type: 'run.edited',
      agent: 'manus',
      step: 2,
      by: 'terminal',
      edit: {
        kind: 'edit_message',
        index: 0,
        role: 'user',
        before: 'the original task',
        after: 'the edited task',
      },
    });
    script.emit({
      type: 'run.resumed',
      agent: 'manus',
      step: 2,
      mode: 'continue',
      by: 'terminal',
      pausedMs: 10,
    });
    script.emit({
      type: 'llm.requested',
      agent: 'manus',
      step: 2,
      model: 'm',
      messageCount: 4,
      inputTokens: 9,
    });
    const model = applyTimelineEvents(createTimeline(), script.events);
    const task = model.items.find((i) => i.kind === 'message' && i.memoryIndex === 0);
    expect(task).toMatchObject({
      content: 'the edited task',
      edits: [{ before: 'the original task' }],
    });
    const steps = model.items.filter((i) => i.kind === 'step');
    const contentOf = (n: number) => {
      const step = steps[n];
      if (step?.kind !== 'step') throw new Error('no step');
      return contextAtStep(model, step)?.messages[0]?.content;
    };
    expect(contentOf(0)).toBe('the original task');
    expect(contentOf(1)).toBe('the edited task');
  });

  it('a stopped run is no longer shown paused', () => {
    const script = new RunScript('r3', 'manus').start('x');
    script.emit({
      type: 'run.paused',
      agent: 'manus',
      step: 0,
      point: 'before_model',
      reasons: [{ kind: 'user' }],
    });
    script.finish('cancelled');
    const model = applyTimelineEvents(createTimeline(), script.events);
    expect(model.debug?.paused).toBeNull();
  });
});
