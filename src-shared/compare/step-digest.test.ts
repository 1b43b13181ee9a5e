import { describe, expect, it } from 'vitest';
import { createEventStamper, type RunEvent, type RunEventPayload } from '../events';
import { diffRuns } from './diff-runs';
import { digestSteps } from './step-digest';
import { history, plainStep } from './testing/history';

/** A planning flow as the runtime emits it: the planner before and between executor steps. */
function flowRun(): RunEvent[] {
  const stamper = createEventStamper('flow');
  const events: RunEvent[] = [];
  const emit = (p: RunEventPayload) => events.push(stamper.stamp(p));
  const respond = (agent: string, step: number, content: string) =>
    emit({
      type: 'llm.responded',
      agent,
      step,
      model: 'm',
      content,
      toolCalls: [],
      usage: { prompt: 10, completion: 5 },
      durationMs: 30,
      finishReason: 'stop',
    });
  const plan = (status: 'not_started' | 'completed') =>
    emit({
      type: 'plan.updated',
      planId: 'p',
      title: 'Plan',
      steps: [
        { text: 'write', status },
        { text: 'test', status: 'not_started' },
      ],
    });
  emit({
    type: 'run.started',
    agent: 'planning',
    task: 'T',
    maxSteps: 60,
    model: 'm',
    flow: 'planning',
    sessionId: 's',
  });
  emit({
    type: 'memory.appended',
    agent: 'planning',
    index: 0,
    message: { role: 'user', content: 'T' },
  });
  respond('planning', 0, 'Here is the plan.');
  plan('not_started');
  emit({
    type: 'memory.appended',
    agent: 'manus',
    index: 0,
    message: { role: 'user', content: 'Do: write' },
  });
  for (const step of [1, 2]) {
    emit({ type: 'step.started', agent: 'manus', step, maxSteps: 60 });
    respond('manus', step, `writing ${step}`);
    emit({ type: 'step.finished', agent: 'manus', step, durationMs: 9 });
  }
  respond('planning', 2, 'Step done; next.');
  plan('completed');
  emit({ type: 'step.started', agent: 'swe', step: 3, maxSteps: 60 });
  emit({ type: 'human.requested', toolCallId: 'c', question: 'Which file?' });
  emit({ type: 'human.answered', toolCallId: 'c', answer: 'main.py' });
  respond('swe', 3, 'testing');
  emit({
    type: 'run.finished',
    outcome: 'finished',
    state: 'FINISHED',
    steps: 3,
    usage: { prompt: 0, completion: 0 },
  });
  return events;
}

describe('digestSteps', () => {
  it('folds a flow into its start, executor steps, the planner’s interlude and the end', () => {
    const steps = digestSteps(flowRun());
    expect(steps.map((s) => `${s.kind}:${s.agent}:${s.step}`)).toEqual([
      'start:planning:0',
      'interlude:manus:0',
      'step:manus:1',
      'step:manus:2',
      'interlude:planning:2',
      'step:swe:3',
      'end:swe:3',
    ]);
    expect(steps[0]!.reply).toBe('Here is the plan.');
    expect(steps[0]!.messages.map((m) => m.role)).toEqual(['user', 'plan']);
    expect(steps[1]!.messages).toEqual([{ role: 'user', text: 'Do: write' }]);
    expect(steps[4]!.messages[0]!.text).toBe('Plan\n[completed] write\n[not_started] test');
    expect(steps[5]!.messages).toEqual([
      { role: 'question', text: 'Which file?' },
      { role: 'answer', text: 'main.py' },
    ]);
    expect(steps[2]).toMatchObject({
      durationMs: 9,
      latencyMs: 30,
      tokens: { prompt: 10, completion: 5 },
    });
    expect(steps.at(-1)!.outcome).toBe('finished');
  });

  it('keeps a tool call that never finished, and ends an unfinished history with “did not finish”', () => {
    const events = history('r', [plainStep(1)], { isUnfinished: true });
    const cut = events.filter((e) => e.type !== 'tool.finished');
    const steps = digestSteps(cut);
    expect(steps[1]!.calls[0]).toMatchObject({ name: 'bash', status: 'running', output: '' });
    expect(steps.at(-1)).toMatchObject({ kind: 'end', outcome: 'did not finish' });
  });

  it("counts the model's own time as latency, not its wait for a slot or between attempts", () => {
    const stamper = createEventStamper('w');
    const events: RunEvent[] = [];
    const emit = (p: RunEventPayload) => events.push(stamper.stamp(p));
    const retried = (step: number, delayMs: number) =>
      emit({
        type: 'llm.retried',
        agent: 'manus',
        step,
        attempt: 1,
        status: 429,
        delayMs,
        error: 'rate limited',
      });
    emit({ type: 'step.started', agent: 'manus', step: 1, maxSteps: 5 });
    retried(1, 4_000);
    emit({
      type: 'llm.responded',
      agent: 'manus',
      step: 1,
      model: 'm',
      content: 'ok',
      toolCalls: [],
      usage: { prompt: 1, completion: 1 },
      // queued 200 ms, a failed attempt of 300 ms, 4 s of backoff, 500 ms answering
      durationMs: 5_000,
      queuedMs: 200,
      finishReason: 'stop',
    });
    emit({ type: 'step.finished', agent: 'manus', step: 1, durationMs: 5_100 });
    // a call that failed after its retries: its backoff is not the next step's
    emit({ type: 'step.started', agent: 'manus', step: 2, maxSteps: 5 });
    retried(2, 1_000);
    emit({ type: 'step.finished', agent: 'manus', step: 2, durationMs: 1_100 });
    emit({ type: 'step.started', agent: 'manus', step: 3, maxSteps: 5 });
    emit({
      type: 'llm.responded',
      agent: 'manus',
      step: 3,
      model: 'm',
      content: 'done',
      toolCalls: [],
      usage: { prompt: 1, completion: 1 },
      durationMs: 700,
      finishReason: 'stop',
    });
    const steps = digestSteps(events).filter((s) => s.kind === 'step');
    expect(steps.map((s) => s.latencyMs)).toEqual([800, 0, 700]);
    expect(steps[0]!.retries).toBe(1);
  });

  it('judges a non-zero exit an error, whether the history says ok (before issue 25) or not', () => {
    const withExit = (isOk: boolean) =>
      history('r', [plainStep(1)]).map((e) =>
        e.type === 'tool.finished' ? { ...e, ok: isOk, exitCode: 1 } : e,
      );
    const [before, after] = [digestSteps(withExit(true)), digestSteps(withExit(false))];
    expect(before[1]!.calls[0]).toMatchObject({ status: 'error', exitCode: 1 });
    expect(after[1]!.calls[0]).toMatchObject({ status: 'error', exitCode: 1 });
    // an old golden run and a new run of the same calls are still equivalent
    expect(diffRuns({ events: withExit(true) }, { events: withExit(false) }).isEquivalent).toBe(
      true,
    );
  });
});
