import { describe, expect, it } from 'vitest';
import { RunScript } from '../../testing/run-script';
import { applyTimelineEvents } from './apply-events';
import { createTimeline } from './model';
import { attemptLabel, formatWaited, retryReason } from './pending-calls';

function requested(script: RunScript, maxAttempts?: number) {
  script.emit({ type: 'step.started', agent: 'manus', step: 1, maxSteps: 20 });
  return script.emit({
    type: 'llm.requested',
    agent: 'manus',
    step: 1,
    model: 'gpt-test',
    messageCount: 2,
    inputTokens: 40,
    ...(maxAttempts !== undefined ? { maxAttempts } : {}),
  });
}

const rateLimited = {
  type: 'llm.retried' as const,
  agent: 'manus',
  step: 1,
  attempt: 1,
  status: 429,
  delayMs: 1500,
  error: 'Rate limited by the provider (429): slow down',
};

describe('pending calls (issue 17 item 6)', () => {
  it('a request opens a pending call with its model, start time and attempt 1 of max', () => {
    const script = new RunScript('r').start('task');
    const event = requested(script, 4);
    const model = applyTimelineEvents(createTimeline(), script.events);
    expect(model.pendingCalls.manus).toEqual({
      agent: 'manus',
      step: 1,
      model: 'gpt-test',
      since: event.ts,
      attempt: 1,
      maxAttempts: 4,
      retries: [],
    });
    expect(attemptLabel(model.pendingCalls.manus!)).toBe('attempt 1 of 4');
  });

  it('each retry moves to the next attempt and keeps its reason, across batches', () => {
    const script = new RunScript('r').start('task');
    requested(script, 3);
    const first = applyTimelineEvents(createTimeline(), script.events);
    const before = first.pendingCalls.manus;
    const retried = script.emit(rateLimited);
    const second = applyTimelineEvents(first, [retried]);
    const call = second.pendingCalls.manus!;
    expect(call).not.toBe(before); // a new object: the row re-renders
    expect(first.pendingCalls.manus).toBe(before); // the earlier model is untouched
    expect(attemptLabel(call)).toBe('attempt 2 of 3');
    expect(call.retries).toEqual([
      { attempt: 1, status: 429, error: rateLimited.error, delayMs: 1500, ts: retried.ts },
    ]);
    expect(retryReason(call.retries[0]!)).toBe(`HTTP 429: ${rateLimited.error}`);
    const network = script.emit({ ...rateLimited, attempt: 2, status: null, error: 'reset' });
    const third = applyTimelineEvents(second, [network]);
    expect(attemptLabel(third.pendingCalls.manus!)).toBe('attempt 3 of 3');
    expect(retryReason(third.pendingCalls.manus!.retries[1]!)).toBe('network: reset');
  });

  it('ends with the first streamed text, the reply, the step or the run', () => {
    const ends: ((s: RunScript) => void)[] = [
      (s) => s.emit({ type: 'llm.delta', agent: 'manus', step: 1, text: 'Hel' }),
      (s) =>
        s.emit({
          type: 'llm.responded',
          agent: 'manus',
          step: 1,
          model: 'gpt-test',
          content: 'hi',
          toolCalls: [],
          usage: { prompt: 1, completion: 1 },
          durationMs: 5,
          finishReason: 'stop',
        }),
      (s) => s.emit({ type: 'step.finished', agent: 'manus', step: 1, durationMs: 9 }),
      (s) => s.finish('error', 'the model failed'),
    ];
    for (const end of ends) {
      const script = new RunScript('r').start('task');
      requested(script, 2);
      script.emit(rateLimited);
      end(script);
      expect(applyTimelineEvents(createTimeline(), script.events).pendingCalls).toEqual({});
    }
  });

  it('older runs without maxAttempts say "attempt n" only', () => {
    const script = new RunScript('r').start('task');
    requested(script);
    script.emit(rateLimited);
    const model = applyTimelineEvents(createTimeline(), script.events);
    expect(attemptLabel(model.pendingCalls.manus!)).toBe('attempt 2');
  });

  it('formats the waited time', () => {
    expect(formatWaited(4_900)).toBe('4 s');
    expect(formatWaited(65_000)).toBe('1 min 05 s');
    expect(formatWaited(-5)).toBe('0 s');
  });
});
