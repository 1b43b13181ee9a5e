import { describe, expect, it } from 'vitest';
import { RunScript } from '../../testing/run-script';
import { applyTimelineEvents } from './apply-events';
import { createTimeline, positionOfId } from './model';
import type { StuckItem, TimelineItem, ToolItem } from './types';

function build(script: RunScript) {
  return applyTimelineEvents(createTimeline(), script.events);
}

function ofKind<K extends TimelineItem['kind']>(items: TimelineItem[], kind: K) {
  return items.filter((i): i is Extract<TimelineItem, { kind: K }> => i.kind === kind);
}

describe('applyTimelineEvents: structure', () => {
  it('groups items under their step, folds tool messages into the tool card and keeps ids ascending', () => {
    const script = new RunScript('r').start('list files');
    script.addStep({ content: 'Let me look', calls: [{ name: 'bash', args: { command: 'ls' } }] });
    script.endStep(120);
    script.finish();
    const model = build(script);
    const kinds = model.items.map((i) => i.kind);
    expect(kinds).toEqual([
      'run',
      'marker', // IDLE -> RUNNING
      'message', // the task
      'step',
      'message', // assistant
      'tool',
      'marker', // RUNNING -> FINISHED
      'finished',
    ]);
    const step = ofKind(model.items, 'step')[0]!;
    expect(step).toMatchObject({ step: 1, isFinished: true, durationMs: 120 });
    expect(step.request).toMatchObject({ model: 'gpt-test' });
    const tool = ofKind(model.items, 'tool')[0]!;
    expect(tool).toMatchObject({
      name: 'bash',
      args: { command: 'ls' },
      status: 'ok',
      output: 'output of bash',
      memoryIndex: 2,
      stepId: step.id,
    });
    expect(tool.observation).toContain('Observed output');
    const assistant = ofKind(model.items, 'message').find((m) => m.role === 'assistant')!;
    expect(assistant.response).toMatchObject({ finishReason: 'tool_calls', durationMs: 40 });
    const ids = model.items.map((i) => i.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(positionOfId(model.items, tool.id)).toBe(5);
    expect(positionOfId(model.items, 9999)).toBe(-1);
  });

  it('shows a failed tool call with its error and exit code, and flags the step', () => {
    const script = new RunScript('r').start('t');
    script.addStep({
      calls: [{ name: 'bash', args: { command: 'false' }, error: 'exit 1', exitCode: 1 }],
    });
    const model = build(script);
    expect(ofKind(model.items, 'tool')[0]).toMatchObject({
      status: 'error',
      error: 'exit 1',
      exitCode: 1,
    });
    expect(ofKind(model.items, 'step')[0]?.hasError).toBe(true);
  });

  it('streams text into one row that becomes the assistant message in place', () => {
    const script = new RunScript('r').start('t');
    const before = build(script);
    script.addStep({ content: 'Hello streaming world', streamChunk: 5 });
    const deltas = script.events.filter((e) => e.type === 'llm.delta');
    expect(deltas.length).toBe(5);
    // apply up to the third delta: one stream row with the text so far
    const upTo = script.events.indexOf(deltas[2]!);
    const partial = applyTimelineEvents(before, script.events.slice(0, upTo + 1));
    const streams = ofKind(partial.items, 'stream');
    expect(streams).toHaveLength(1);
    expect(streams[0]!.text).toBe('Hello streaming');
    const done = applyTimelineEvents(partial, script.events);
    expect(ofKind(done.items, 'stream')).toHaveLength(0);
    const message = ofKind(done.items, 'message').at(-1)!;
    expect(message).toMatchObject({ content: 'Hello streaming world', wasStreamed: true });
    expect(message.id).toBe(streams[0]!.id);
  });

  it('applies events incrementally without touching the previous model', () => {
    const script = new RunScript('r').start('t');
    script.addStep({ calls: [{ name: 'bash', args: {} }] });
    const split = script.events.findIndex((e) => e.type === 'tool.started') + 1;
    const first = applyTimelineEvents(createTimeline(), script.events.slice(0, split));
    const snapshot = first.items.slice();
    const toolBefore = ofKind(first.items, 'tool')[0]!;
    const second = applyTimelineEvents(first, script.events.slice(split));
    expect(first.items).toEqual(snapshot);
    expect(toolBefore.status).toBe('running');
    expect(ofKind(second.items, 'tool')[0]!.status).toBe('ok');
    // unchanged items keep their identity, so their rows do not re-render
    expect(second.items[0]).toBe(first.items[0]);
  });

  it('skips events it already applied (snapshot followed by overlapping pushes)', () => {
    const script = new RunScript('r').start('t');
    script.addStep({ content: 'a' });
    const once = build(script);
    const again = applyTimelineEvents(once, script.events.slice(2));
    expect(again).toBe(once);
    expect(again.items.length).toBe(once.items.length);
  });

  it('re-applying the same events from the same base gives the same model', () => {
    const script = new RunScript('r').start('t');
    script.addStep({ content: 'same' });
    script.addStep({ content: 'same' });
    const base = createTimeline();
    const a = applyTimelineEvents(base, script.events);
    const b = applyTimelineEvents(base, script.events);
    expect(b.items).toEqual(a.items);
  });

  it('marks what the model stopped seeing when memory is truncated', () => {
    const script = new RunScript('r').start('t');
    const first = script.addStep({ content: 'one', calls: [{ name: 'bash', args: { n: 1 } }] });
    script.addStep({ content: 'two' });
    script.truncate([first, first + 1], 3);
    const model = build(script);
    const marker = ofKind(model.items, 'marker').find((m) => m.marker === 'truncated')!;
    expect(marker.dropped).toEqual([first, first + 1]);
    expect(marker.text).toMatch(/2 older messages no longer sent/);
    const assistant = ofKind(model.items, 'message').find((m) => m.memoryIndex === first)!;
    const tool = ofKind(model.items, 'tool')[0]!;
    expect(assistant.droppedAtSeq).toBe(marker.id);
    expect(tool.droppedAtSeq).toBe(marker.id);
    expect(marker.droppedItems).toEqual([assistant.id, tool.id]);
  });

  it('records retries, sandbox changes, plans and human questions', () => {
    const script = new RunScript('r').start('t');
    script.emit({
      type: 'llm.retried',
      agent: 'manus',
      step: 1,
      attempt: 1,
      status: 429,
      delayMs: 2000,
      error: 'rate limited',
    });
    script.emit({ type: 'sandbox.changed', status: 'creating', image: 'img' });
    script.emit({ type: 'sandbox.changed', status: 'busy', image: 'img', containerId: 'abc' });
    script.emit({
      type: 'plan.updated',
      planId: 'p',
      title: 'Plan',
      steps: [
        { text: 'a', status: 'completed' },
        { text: 'b', status: 'in_progress' },
      ],
    });
    script.emit({ type: 'human.requested', toolCallId: 'h1', question: 'Which file?' });
    let model = build(script);
    expect(model.openQuestions).toEqual(['h1']);
    expect(model.sandbox).toMatchObject({ status: 'busy', containerId: 'abc' });
    expect(model.plan?.steps).toHaveLength(2);
    const markers = ofKind(model.items, 'marker').map((m) => m.text);
    expect(markers).toContain('Retry 1 after HTTP 429 (waited 2.0 s): rate limited');
    expect(markers.filter((t) => t.startsWith('Sandbox'))).toEqual(['Sandbox creating (img)']);
    // the update that starts step b is that step's header, which says where the plan is
    expect(markers).toContain('Plan step 2 of 2: b (1 of 2 completed)');
    script.emit({ type: 'human.answered', toolCallId: 'h1', answer: 'a.txt' });
    model = applyTimelineEvents(model, script.events);
    expect(model.openQuestions).toEqual([]);
    expect(ofKind(model.items, 'human')[0]).toMatchObject({
      question: 'Which file?',
      answer: 'a.txt',
    });
  });
});

describe('applyTimelineEvents: duplicates and stuck markers', () => {
  it('highlights a repeated response with links to every earlier occurrence and its count', () => {
    const script = new RunScript('r').start('t');
    const a = script.addStep({ content: 'I will check again.' });
    script.addStep({ content: 'Something else' });
    const b = script.addStep({ content: 'I  will check again. ' });
    const c = script.addStep({ content: 'I will check again.' });
    const model = build(script);
    const messages = ofKind(model.items, 'message');
    const byIndex = (i: number) => messages.find((m) => m.memoryIndex === i)!;
    expect(byIndex(a).duplicate).toBeUndefined();
    expect(byIndex(a).repeatedLater).toBe(2);
    expect(byIndex(b).duplicate).toMatchObject({ kind: 'content', of: [a], occurrence: 2 });
    expect(byIndex(c).duplicate).toMatchObject({ kind: 'content', of: [a, b], occurrence: 3 });
    expect(byIndex(c).duplicate?.ofItems).toEqual([byIndex(a).id, byIndex(b).id]);
    expect(ofKind(model.items, 'step').map((s) => s.duplicateCount)).toEqual([0, 0, 1, 1]);
  });

  it('keeps a duplicate’s links short in long runs: the first occurrence and the latest four, with the exact count', () => {
    const script = new RunScript('r').start('t');
    const indexes: number[] = [];
    for (let i = 0; i < 10; i++)
      indexes.push(script.addStep({ content: 'again', calls: [{ name: 'bash', args: { i } }] }));
    const model = build(script);
    const last = ofKind(model.items, 'message').find((m) => m.memoryIndex === indexes[9])!;
    expect(last.duplicate?.of).toEqual([indexes[0], ...indexes.slice(5, 9)]);
    expect(last.duplicate?.occurrence).toBe(10);
    const first = ofKind(model.items, 'message').find((m) => m.memoryIndex === indexes[0])!;
    expect(first.repeatedLater).toBe(9);
  });

  it('counts a repeat of both content and calls once on the original', () => {
    const script = new RunScript('r').start('t');
    const a = script.addStep({
      content: 'look',
      calls: [{ name: 'bash', args: { command: 'ls' } }],
    });
    const b = script.addStep({
      content: 'look',
      calls: [{ name: 'bash', args: { command: 'ls' } }],
    });
    const model = build(script);
    const byIndex = (i: number) => ofKind(model.items, 'message').find((m) => m.memoryIndex === i)!;
    expect(byIndex(b).duplicate).toMatchObject({ kind: 'both', of: [a], occurrence: 2 });
    expect(byIndex(a).repeatedLater).toBe(1);
  });

  it('fixes the OpenManus blind spot: identical tool calls with empty content are duplicates', () => {
    const script = new RunScript('r').start('t');
    const a = script.addStep({
      content: '',
      calls: [{ name: 'bash', args: { command: 'ls', cwd: '/' } }],
    });
    const b = script.addStep({
      content: null,
      calls: [{ name: 'bash', rawArgs: '{ "cwd": "/", "command": "ls" }' }],
    });
    const other = script.addStep({
      content: '',
      calls: [{ name: 'bash', args: { command: 'pwd' } }],
    });
    const model = build(script);
    const messages = ofKind(model.items, 'message');
    const byIndex = (i: number) => messages.find((m) => m.memoryIndex === i)!;
    expect(byIndex(b).duplicate).toMatchObject({ kind: 'tool_calls', of: [a], occurrence: 2 });
    expect(byIndex(other).duplicate).toBeUndefined();
  });

  it('does not treat responses of different agents as duplicates of each other', () => {
    const one = new RunScript('r', 'planning').start('t');
    one.addStep({ content: 'same words' });
    const events = [...one.events];
    const two = new RunScript('r', 'swe');
    // continue the same run's seq for a second agent
    const offset = events.length;
    two.addStep({ content: 'same words' });
    for (const e of two.events) events.push({ ...e, seq: e.seq + offset });
    const model = applyTimelineEvents(createTimeline(), events);
    expect(ofKind(model.items, 'message').filter((m) => m.duplicate)).toHaveLength(0);
  });

  it('shows the stuck rule and links the nudge to the next step, whose request carries it', () => {
    const script = new RunScript('r').start('t');
    const a = script.addStep({ content: '', calls: [{ name: 'bash', args: { command: 'ls' } }] });
    script.endStep();
    const b = script.addStep({ content: '', calls: [{ name: 'bash', args: { command: 'ls' } }] });
    script.stuck('tool_calls', [a]);
    script.endStep();
    script.addStep({ content: 'ok' });
    script.endStep();
    script.addStep({ content: 'later' });
    const model = build(script);
    const stuck = ofKind(model.items, 'stuck')[0] as StuckItem;
    const steps = ofKind(model.items, 'step');
    const assistantA = ofKind(model.items, 'message').find((m) => m.memoryIndex === a)!;
    expect(stuck).toMatchObject({ stuckKind: 'tool_calls', count: 2, duplicateOf: [a], step: 2 });
    expect(stuck.duplicateItems).toEqual([assistantA.id]);
    expect(stuck.nudge).toEqual({ step: 3, stepId: steps[2]!.id });
    expect(steps.map((s) => s.nudgedBy)).toEqual([undefined, undefined, stuck.id, undefined]);
    expect(steps[1]!.isStuck).toBe(true);
    expect(ofKind(model.items, 'message').find((m) => m.memoryIndex === b)?.duplicate).toBeTruthy();
    expect((ofKind(model.items, 'tool')[0] as ToolItem).name).toBe('bash');
  });
});

describe('applyTimelineEvents: tool progress', () => {
  it('shows the latest progress on the running tool card, and keeps it after it finishes', () => {
    const script = new RunScript('r').start('long work');
    script.emit({ type: 'step.started', agent: 'manus', step: 1, maxSteps: 20 });
    script.emit({
      type: 'tool.started',
      agent: 'manus',
      step: 1,
      toolCallId: 'call_long',
      name: 'mcp_everything_trigger-long-running-operation',
      args: { duration: 8, steps: 4 },
    });
    const running = applyTimelineEvents(createTimeline(), script.events);
    for (const progress of [1, 2, 3]) {
      script.emit({
        type: 'tool.progress',
        agent: 'manus',
        step: 1,
        toolCallId: 'call_long',
        name: 'mcp_everything_trigger-long-running-operation',
        progress,
        total: 4,
        ...(progress === 3 ? { message: 'almost there' } : {}),
      });
    }
    const model = applyTimelineEvents(running, script.events);
    const tool = ofKind(model.items, 'tool')[0]!;
    expect(tool).toMatchObject({
      status: 'running',
      progress: { progress: 3, total: 4, message: 'almost there' },
    });
    // an unchanged card keeps its identity only when nothing about it changed
    expect(ofKind(running.items, 'tool')[0]).not.toBe(tool);
  });
});

describe('applyTimelineEvents: a tool that calls the model itself', () => {
  it("keeps the step's request and system prompt the agent's (extract_content)", () => {
    const script = new RunScript('r').start('read the page');
    const request = (step: number, system: string | undefined, messageCount: number) =>
      script.emit({
        type: 'llm.requested',
        agent: 'manus',
        step,
        model: 'm',
        messageCount,
        inputTokens: 10,
        ...(system !== undefined ? { system } : {}),
      });
    const answer = (step: number, content: string) =>
      script.emit({
        type: 'llm.responded',
        agent: 'manus',
        step,
        model: 'm',
        content,
        toolCalls: [],
        usage: { prompt: 10, completion: 5 },
        durationMs: 40,
        finishReason: 'stop',
      });
    script.emit({ type: 'step.started', agent: 'manus', step: 1, maxSteps: 5 });
    request(1, 'You are Manus.', 3);
    answer(1, 'I will extract the prices.');
    script.emit({
      type: 'tool.started',
      agent: 'manus',
      step: 1,
      toolCallId: 'c1',
      name: 'browser_use',
      args: { action: 'extract_content', goal: 'prices' },
    });
    // the tool's own model call, with its own system prompt
    request(1, 'You extract content from pages.', 2);
    answer(1, 'Prices: 3 EUR');
    script.emit({
      type: 'tool.finished',
      agent: 'manus',
      step: 1,
      toolCallId: 'c1',
      name: 'browser_use',
      ok: true,
      output: 'Prices: 3 EUR',
      durationMs: 90,
    });
    script.endStep();
    script.emit({ type: 'step.started', agent: 'manus', step: 2, maxSteps: 5 });
    // unchanged system prompt: the runtime does not send it again
    request(2, undefined, 5);
    const model = build(script);
    const [first, second] = ofKind(model.items, 'step');
    expect(first!.request).toMatchObject({ messageCount: 3, system: 'You are Manus.' });
    expect(second!.request).toMatchObject({ messageCount: 5, system: 'You are Manus.' });
    // both calls' tokens are the step's cost
    expect(first!.usage).toEqual({ prompt: 20, completion: 10 });
  });
});
