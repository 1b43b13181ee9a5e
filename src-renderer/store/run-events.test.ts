import { describe, expect, it } from 'vitest';
import { createEventStamper, type RunEvent } from '@shared/events';
import { applyEventBatch, emptyRunsData, mergeSummaries } from './run-events';

function sampleRun(runId: string): RunEvent[] {
  const s = createEventStamper(runId, () => 5);
  return [
    s.stamp({
      type: 'run.started',
      agent: 'manus',
      task: 't',
      maxSteps: 3,
      model: 'm',
      sessionId: 's',
    }),
    s.stamp({ type: 'state.changed', agent: 'manus', from: 'IDLE', to: 'RUNNING' }),
    s.stamp({ type: 'step.started', agent: 'manus', step: 1, maxSteps: 3 }),
    s.stamp({ type: 'state.changed', agent: 'manus', from: 'RUNNING', to: 'FINISHED' }),
    s.stamp({
      type: 'run.finished',
      outcome: 'finished',
      state: 'FINISHED',
      steps: 1,
      usage: { prompt: 1, completion: 2 },
    }),
  ];
}

describe('applyEventBatch', () => {
  it('appends events per run and derives the summary', () => {
    const events = sampleRun('a');
    const data = applyEventBatch(
      applyEventBatch(emptyRunsData, events.slice(0, 3)),
      events.slice(3),
    );
    expect(data.order).toEqual(['a']);
    expect(data.runs['a']?.events).toHaveLength(5);
    expect(data.runs['a']?.summary).toMatchObject({
      state: 'FINISHED',
      outcome: 'finished',
      steps: 1,
      maxSteps: 3,
    });
  });

  it('skips events already applied, so overlapping pushes never duplicate', () => {
    const events = sampleRun('a');
    const once = applyEventBatch(emptyRunsData, events.slice(0, 4));
    const twice = applyEventBatch(once, events.slice(2));
    expect(twice.runs['a']?.events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it('does not mutate the previous state', () => {
    const events = sampleRun('a');
    const first = applyEventBatch(emptyRunsData, events.slice(0, 2));
    const before = first.runs['a']?.events.length;
    applyEventBatch(first, events.slice(2));
    expect(first.runs['a']?.events.length).toBe(before);
  });

  it('keeps live runs when the history list arrives later', () => {
    const live = applyEventBatch(emptyRunsData, sampleRun('b'));
    const merged = mergeSummaries(live, [
      {
        runId: 'b',
        agent: 'x',
        task: 'stale',
        model: 'm',
        startedAt: 1,
        state: 'RUNNING',
        steps: 0,
        maxSteps: 1,
        usage: { prompt: 0, completion: 0 },
      },
      {
        runId: 'old',
        agent: 'swe',
        task: 'old',
        model: 'm',
        startedAt: 0,
        state: 'FINISHED',
        outcome: 'finished',
        steps: 1,
        maxSteps: 1,
        usage: { prompt: 0, completion: 0 },
      },
    ]);
    expect(merged.runs['b']?.summary?.agent).toBe('manus');
    expect(merged.order).toEqual(['b', 'old']);
  });
});
