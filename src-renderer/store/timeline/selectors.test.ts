import { describe, expect, it } from 'vitest';
import { RunScript } from '../../testing/run-script';
import { applyTimelineEvents } from './apply-events';
import { createTimeline } from './model';
import { contextAtStep } from './context-at-step';
import { estimateTokens } from './tokens';
import type { StepItem, TimelineModel } from './types';
import { computeVisibleRows, NO_FILTERS, type TimelineFilters } from './visible-rows';

function sampleRun() {
  const script = new RunScript('r').start('Find the bug');
  script.addStep({
    content: 'Reading the file',
    calls: [{ name: 'str_replace_editor', args: { path: 'a.py' } }],
  });
  script.endStep();
  script.addStep({
    content: 'Running tests',
    calls: [{ name: 'bash', args: { command: 'pytest' }, error: 'exit 1', exitCode: 1 }],
  });
  script.endStep();
  script.addStep({
    content: 'Running tests',
    calls: [{ name: 'bash', args: { command: 'pytest' } }],
  });
  script.endStep();
  script.finish();
  return applyTimelineEvents(createTimeline(), script.events);
}

function rowsOf(model: TimelineModel, filters: Partial<TimelineFilters>, collapsed: number[] = []) {
  const rows = computeVisibleRows(model.items, { ...NO_FILTERS, ...filters }, new Set(collapsed));
  return rows?.map((p) => model.items[p]!);
}

describe('computeVisibleRows', () => {
  it('returns null (every item is a row) with no filter and nothing collapsed', () => {
    expect(computeVisibleRows(sampleRun().items, NO_FILTERS, new Set())).toBeNull();
  });

  it('filters by role and keeps the step header of each shown row', () => {
    const rows = rowsOf(sampleRun(), { roles: ['tool'] })!;
    expect(rows.map((r) => r.kind)).toEqual(['step', 'tool', 'step', 'tool', 'step', 'tool']);
  });

  it('filters by tool name: the calls and the responses that made them', () => {
    const rows = rowsOf(sampleRun(), { tool: 'bash' })!;
    expect(rows.map((r) => r.kind)).toEqual(['step', 'message', 'tool', 'step', 'message', 'tool']);
  });

  it('shows errors only', () => {
    const rows = rowsOf(sampleRun(), { isErrorsOnly: true })!;
    expect(rows.map((r) => r.kind)).toEqual(['step', 'tool']);
    expect(rows[1]).toMatchObject({ kind: 'tool', status: 'error' });
  });

  it('shows duplicates only, with the response they repeat', () => {
    const rows = rowsOf(sampleRun(), { isDuplicatesOnly: true })!;
    const messages = rows.filter((r) => r.kind === 'message');
    expect(messages.map((m) => (m.kind === 'message' ? m.content : ''))).toEqual([
      'Running tests',
      'Running tests',
    ]);
  });

  it('matches free text case-insensitively in content, arguments and output', () => {
    expect(rowsOf(sampleRun(), { text: 'A.PY' })!.filter((r) => r.kind !== 'step')).toHaveLength(
      2, // the assistant message carrying the call, and the tool card
    );
    expect(rowsOf(sampleRun(), { text: 'no such text' })).toEqual([]);
  });

  it('hides the items of a collapsed step but keeps its header', () => {
    const model = sampleRun();
    const firstStep = model.items.find((i) => i.kind === 'step')!;
    const rows = rowsOf(model, {}, [firstStep.id])!;
    expect(rows.filter((r) => r.stepId === firstStep.id).map((r) => r.kind)).toEqual(['step']);
    expect(rows.length).toBe(model.items.length - 2);
  });
});

describe('contextAtStep', () => {
  it('lists the memory the model received for the step, with token estimates', () => {
    const model = sampleRun();
    const steps = model.items.filter((i): i is StepItem => i.kind === 'step');
    const context = contextAtStep(model, steps[1]!)!;
    expect(context.messages.map((m) => [m.memoryIndex, m.role])).toEqual([
      [0, 'user'],
      [1, 'assistant'],
      [2, 'tool'],
    ]);
    expect(context.messages[2]!.content).toContain('Observed output');
    expect(context.estimatedTokens).toBe(context.messages.reduce((s, m) => s + m.tokens, 0));
    expect(context.promptTokens).toBe(200);
    expect(context.notInMemory).toBe(0);
  });

  it('leaves out what a truncation dropped before the request, and counts it', () => {
    const script = new RunScript('r').start('task');
    const first = script.addStep({ content: 'one', calls: [{ name: 'bash', args: {} }] });
    script.endStep();
    script.addStep({ content: 'two' });
    script.endStep();
    script.truncate([first, first + 1], 2);
    script.addStep({ content: 'three' });
    const model = applyTimelineEvents(createTimeline(), script.events);
    const steps = model.items.filter((i): i is StepItem => i.kind === 'step');
    const before = contextAtStep(model, steps[1]!)!;
    const after = contextAtStep(model, steps[2]!)!;
    expect(before.messages.map((m) => m.memoryIndex)).toEqual([0, 1, 2]);
    expect(after.messages.map((m) => m.memoryIndex)).toEqual([0, 3]);
    expect(after.droppedEarlier).toBe(2);
  });

  it('reports request messages that memory does not show (the system prompt)', () => {
    const script = new RunScript('r').start('task');
    script.emit({ type: 'step.started', agent: 'manus', step: 1, maxSteps: 5 });
    script.emit({
      type: 'llm.requested',
      agent: 'manus',
      step: 1,
      model: 'm',
      messageCount: 2,
      inputTokens: 50,
    });
    const model = applyTimelineEvents(createTimeline(), script.events);
    const step = model.items.find((i): i is StepItem => i.kind === 'step')!;
    const context = contextAtStep(model, step)!;
    expect(context.messages).toHaveLength(1);
    expect(context.notInMemory).toBe(1);
    expect(context.inputTokens).toBe(50);
  });

  it('lists the stuck nudge a step’s request carried, apart from the system prompt', () => {
    const script = new RunScript('r').start('task');
    const a = script.addStep({ content: 'same' });
    script.endStep();
    script.addStep({ content: 'same' });
    script.stuck('content', [a]);
    script.endStep();
    script.emit({ type: 'step.started', agent: 'manus', step: 3, maxSteps: 5 });
    // system prompt + 3 memory messages + the nudge
    script.emit({
      type: 'llm.requested',
      agent: 'manus',
      step: 3,
      model: 'm',
      messageCount: 5,
      inputTokens: 0,
    });
    const model = applyTimelineEvents(createTimeline(), script.events);
    const steps = model.items.filter((i): i is StepItem => i.kind === 'step');
    const stuck = model.items.find((i) => i.kind === 'stuck')!;
    const context = contextAtStep(model, steps[2]!)!;
    expect(context.messages).toHaveLength(3);
    expect(context.nudgedBy).toBe(stuck.id);
    expect(context.notInMemory).toBe(1);
    expect(contextAtStep(model, steps[1]!)!.nudgedBy).toBeUndefined();
  });

  it('is null for a step whose request has not been made yet', () => {
    const script = new RunScript('r').start('task');
    script.emit({ type: 'step.started', agent: 'manus', step: 1, maxSteps: 5 });
    const model = applyTimelineEvents(createTimeline(), script.events);
    const step = model.items.find((i): i is StepItem => i.kind === 'step')!;
    expect(contextAtStep(model, step)).toBeNull();
  });
});

describe('estimateTokens', () => {
  it('counts content and tool-call arguments', () => {
    expect(estimateTokens(null)).toBe(4);
    expect(estimateTokens('abcdefgh')).toBe(6);
    expect(
      estimateTokens('', [
        { id: 'x', type: 'function', function: { name: 'bash', arguments: '{"a":1}' } },
      ]),
    ).toBe(4 + Math.ceil(11 / 4));
  });
});
