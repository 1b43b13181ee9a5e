import { describe, expect, it } from 'vitest';
import type { PlanStep } from '@shared/events';
import { RunScript } from '../../testing/run-script';
import { applyTimelineEvents } from './apply-events';
import { createTimeline } from './model';
import { computeVisibleRows, NO_FILTERS } from './visible-rows';
import type { TimelineItem } from './types';

const NEXT = 'Choose the next tool call that moves the task forward.';

/** A planning flow as the runtime emits it (see a `--flow planning --jsonl` run). */
function flowRun() {
  const s = new RunScript('f', 'planning', { maxSteps: 60 }).start('Greet twice', 'planning');
  const plan = (steps: [string, PlanStep['status']][]) =>
    s.emit({
      type: 'plan.updated',
      planId: 'p1',
      title: 'Greeting',
      steps: steps.map(([text, status]) => ({
        text,
        status,
        agent: text.slice(1, text.indexOf(']')),
      })),
    });
  const call = {
    id: 'call_plan',
    type: 'function' as const,
    function: { name: 'planning', arguments: '{"command":"create"}' },
  };
  s.emit({
    type: 'llm.requested',
    agent: 'planning',
    step: 0,
    model: 'm',
    messageCount: 2,
    inputTokens: 0,
  });
  s.emit({
    type: 'llm.responded',
    agent: 'planning',
    step: 0,
    model: 'm',
    content: 'A plan in two steps.',
    toolCalls: [call],
    usage: { prompt: 10, completion: 5 },
    durationMs: 300,
    finishReason: 'tool_calls',
  });
  s.emit({
    type: 'tool.started',
    agent: 'planning',
    step: 0,
    toolCallId: 'call_plan',
    name: 'planning',
    args: { command: 'create' },
  });
  plan([
    ['[manus] write', 'not_started'],
    ['[swe] check', 'not_started'],
  ]);
  s.emit({
    type: 'tool.finished',
    agent: 'planning',
    step: 0,
    toolCallId: 'call_plan',
    name: 'planning',
    ok: true,
    output: 'Plan created',
    durationMs: 2,
  });
  s.emit({
    type: 'memory.appended',
    agent: 'planning',
    index: 1,
    message: { role: 'assistant', content: 'Plan: Greeting\n0. [ ] write' },
  });
  plan([
    ['[manus] write', 'in_progress'],
    ['[swe] check', 'not_started'],
  ]);
  let step = 0;
  for (const agent of ['manus', 'swe']) {
    s.emit({ type: 'state.changed', agent, from: 'IDLE', to: 'RUNNING' });
    s.emit({
      type: 'memory.appended',
      agent,
      index: 0,
      message: { role: 'user', content: `CURRENT STEP for ${agent}` },
    });
    for (let i = 1; i <= 2; i++) {
      step += 1;
      s.emit({ type: 'step.started', agent, step, maxSteps: 60 });
      s.emit({
        type: 'memory.appended',
        agent,
        index: i * 2 - 1,
        message: { role: 'user', content: NEXT },
      });
      s.emit({
        type: 'memory.appended',
        agent,
        index: i * 2,
        message: { role: 'assistant', content: `${agent} works ${i}` },
      });
      s.emit({ type: 'step.finished', agent, step, durationMs: 5 });
    }
    if (agent === 'manus') {
      plan([
        ['[manus] write', 'completed'],
        ['[swe] check', 'not_started'],
      ]);
      plan([
        ['[manus] write', 'completed'],
        ['[swe] check', 'in_progress'],
      ]);
    }
  }
  plan([
    ['[manus] write', 'completed'],
    ['[swe] check', 'completed'],
  ]);
  s.emit({
    type: 'memory.appended',
    agent: 'planning',
    index: 2,
    message: { role: 'assistant', content: 'Summary' },
  });
  return applyTimelineEvents(createTimeline(), s.events);
}

const text = (i: TimelineItem) =>
  i.kind === 'message'
    ? (i.content ?? '')
    : i.kind === 'marker'
      ? i.text
      : i.kind === 'tool'
        ? `tool ${i.name}`
        : i.kind;

describe('a flow as a tree', () => {
  it('nests each executor step under its plan step; plan steps fold; the summary stays outside', () => {
    const model = flowRun();
    const headers = model.items.filter((i) => i.kind === 'marker' && i.planStep);
    expect(headers.map(text)).toEqual([
      'Plan step 1 of 2: [manus] write (0 of 2 completed)',
      'Plan step 2 of 2: [swe] check (1 of 2 completed)',
    ]);
    expect(model.plan?.stepItems).toEqual({ 0: headers[0]!.id, 1: headers[1]!.id });
    const steps = model.items.filter((i) => i.kind === 'step');
    expect(steps.map((s) => s.planStepId)).toEqual([
      headers[0]!.id,
      headers[0]!.id,
      headers[1]!.id,
      headers[1]!.id,
    ]);
    const summary = model.items.find((i) => i.kind === 'message' && i.content === 'Summary')!;
    expect(summary.planStepId).toBeUndefined();
    // the first header's status follows the plan
    const first = model.items.find((i) => i.id === headers[0]!.id);
    expect(first?.kind === 'marker' && first.planStep?.status).toBe('completed');

    const rows = computeVisibleRows(model.items, NO_FILTERS, new Set([headers[0]!.id]))!;
    const shown = rows.map((p) => model.items[p]!);
    expect(shown.some((i) => text(i) === 'manus works 1')).toBe(false);
    expect(shown.some((i) => text(i) === 'swe works 1')).toBe(true);
    expect(shown.some((i) => i.id === headers[0]!.id)).toBe(true);
  });

  it('says each plan summary once', () => {
    const summaries = flowRun()
      .items.filter((i) => i.kind === 'marker' && i.marker === 'plan' && !i.planStep)
      .map(text);
    expect(summaries).toEqual([
      'Plan “Greeting”: 0 of 2 steps completed',
      'Plan “Greeting”: 1 of 2 steps completed',
      'Plan “Greeting”: 2 of 2 steps completed',
    ]);
  });

  it("shows the planner's reply before the planning tool's result", () => {
    const items = flowRun().items;
    const reply = items.findIndex((i) => i.kind === 'message' && i.isReplyOnly);
    const tool = items.findIndex((i) => i.kind === 'tool' && i.name === 'planning');
    expect(reply).toBeGreaterThan(0);
    expect(reply).toBeLessThan(tool);
    const item = items[reply]!;
    expect(item.kind === 'message' && item.toolCalls?.[0]?.function.name).toBe('planning');
    expect(item.kind === 'message' && item.response?.durationMs).toBe(300);
    const ids = items.map((i) => i.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('marks a prompt repeated word for word, per agent, pointing at the first one', () => {
    const prompts = flowRun().items.filter((i) => i.kind === 'message' && i.content === NEXT);
    expect(prompts).toHaveLength(4);
    const [m1, m2, s1, s2] = prompts as Extract<TimelineItem, { kind: 'message' }>[];
    expect(m1!.repeatOf).toBeUndefined();
    expect(m2!.repeatOf).toBe(m1!.id);
    expect(s1!.repeatOf).toBeUndefined();
    expect(s2!.repeatOf).toBe(s1!.id);
  });
});
