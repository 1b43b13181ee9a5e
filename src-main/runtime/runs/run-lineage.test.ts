/**
 * Where a fork or a resume may start (run-lineage.ts), and that exporting and importing
 * a fork keeps its lineage.
 */
import { describe, expect, it } from 'vitest';
import { createEventStamper, type RunEvent, type RunEventPayload } from '@shared/events';
import { MemoryRunHistory } from './run-history';
import { lineageInput, LineageError } from './run-lineage';
import { exportRun, importRun } from './run-transfer';

function record(history: MemoryRunHistory, runId: string, payloads: RunEventPayload[]): void {
  const stamper = createEventStamper(runId);
  for (const payload of payloads) {
    const event: RunEvent = stamper.stamp(payload);
    history.append(event, JSON.stringify(event));
  }
}

const start = (extra: Partial<RunEventPayload> = {}): RunEventPayload =>
  ({
    type: 'run.started',
    agent: 'manus',
    task: 'the task',
    maxSteps: 20,
    model: 'm',
    sessionId: 's-1',
    ...extra,
  }) as RunEventPayload;
const step = (n: number): RunEventPayload[] => [
  { type: 'step.started', agent: 'manus', step: n, maxSteps: 20 },
  { type: 'step.finished', agent: 'manus', step: n, durationMs: 1 },
];
const finished: RunEventPayload = {
  type: 'run.finished',
  outcome: 'finished',
  state: 'FINISHED',
  steps: 2,
  usage: { prompt: 0, completion: 0 },
};

describe('run lineage', () => {
  it('forks at a finished step only; a flow is forked, not resumed', () => {
    const history = new MemoryRunHistory();
    record(history, '20260101T000000-aaaaaaaa', [start(), ...step(1), ...step(2), finished]);
    const summary = history.summary('20260101T000000-aaaaaaaa');
    const fork = lineageInput(
      history,
      { kind: 'fork', runId: '20260101T000000-aaaaaaaa', step: 2, message: 'hi' },
      summary,
    );
    expect(fork.lineage).toMatchObject({ kind: 'fork', from: { step: 2 }, message: 'hi' });
    expect(fork.input).toMatchObject({ task: 'the task', agent: 'manus' });
    expect(() =>
      lineageInput(history, { kind: 'fork', runId: '20260101T000000-aaaaaaaa', step: 3 }, summary),
    ).toThrow(/no finished step 3 \(its steps: 1-2\)/);
    // A finished run is forked, not resumed.
    expect(() =>
      lineageInput(history, { kind: 'resume', runId: '20260101T000000-aaaaaaaa' }, summary),
    ).toThrow(LineageError);

    record(history, '20260101T000000-bbbbbbbb', [
      start({ flow: 'planning' }),
      ...step(1),
      finished,
    ]);
    const flowSummary = history.summary('20260101T000000-bbbbbbbb');
    expect(
      lineageInput(
        history,
        { kind: 'fork', runId: '20260101T000000-bbbbbbbb', step: 1 },
        flowSummary,
      ).input,
    ).toMatchObject({ flow: 'planning' });
    expect(() =>
      lineageInput(
        history,
        { kind: 'resume', runId: '20260101T000000-bbbbbbbb' },
        { ...flowSummary!, finishedAt: undefined, isInterrupted: true },
      ),
    ).toThrow(/PlanningFlow/);
  });

  it('resumes an interrupted run from its last step, in its own session', () => {
    const history = new MemoryRunHistory();
    record(history, '20260101T000000-cccccccc', [start(), ...step(1), step(2)[0]!]);
    const summary = { ...history.summary('20260101T000000-cccccccc')!, isInterrupted: true };
    const resumed = lineageInput(
      history,
      { kind: 'resume', runId: '20260101T000000-cccccccc' },
      summary,
    );
    expect(resumed.lineage.from).toEqual({ runId: '20260101T000000-cccccccc', step: 2 });
    expect(resumed.input.sessionId).toBe('s-1');
  });

  it('export and import keep a fork’s lineage', () => {
    const from = new MemoryRunHistory();
    record(from, '20260101T000000-dddddddd', [
      start({ forkOf: { runId: '20260101T000000-aaaaaaaa', step: 2 } }),
      ...step(3),
      finished,
    ]);
    const to = new MemoryRunHistory();
    const imported = importRun(to, exportRun(from, '20260101T000000-dddddddd').content, 'f');
    expect(imported.summary.forkOf).toEqual({ runId: '20260101T000000-aaaaaaaa', step: 2 });
  });
});
