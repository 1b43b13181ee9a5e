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

  it('resumes an interrupted run from its last step that did something, in its own session', () => {
    const history = new MemoryRunHistory();
    const reply: RunEventPayload = {
      type: 'memory.appended',
      agent: 'manus',
      index: 1,
      message: { role: 'assistant', content: 'working' },
    };
    // killed in step 2 after its reply: step 2 happened, the run goes on with step 3
    record(history, '20260101T000000-cccccccc', [start(), ...step(1), step(2)[0]!, reply]);
    const summary = { ...history.summary('20260101T000000-cccccccc')!, isInterrupted: true };
    const resumed = lineageInput(
      history,
      { kind: 'resume', runId: '20260101T000000-cccccccc' },
      summary,
    );
    expect(resumed.lineage.from).toEqual({ runId: '20260101T000000-cccccccc', step: 2 });
    expect(resumed.input.sessionId).toBe('s-1');
    // killed while paused before step 2's model call (issue 24 item 10): step 2 never
    // did anything, so the resumed run runs it again instead of starting at step 3
    const paused: RunEventPayload = {
      type: 'run.paused',
      agent: 'manus',
      step: 2,
      point: 'before_model',
      reasons: [{ kind: 'user' }],
    };
    record(history, '20260101T000000-cccccccd', [start(), ...step(1), step(2)[0]!, paused]);
    const cut = { ...history.summary('20260101T000000-cccccccd')!, isInterrupted: true };
    expect(
      lineageInput(history, { kind: 'resume', runId: '20260101T000000-cccccccd' }, cut).lineage.from
        .step,
    ).toBe(1);
  });

  it('refuses up front what it cannot honour: an imported run, a bad step limit, an unknown agent', () => {
    const history = new MemoryRunHistory();
    record(history, '20260101T000000-eeeeeeee', [start(), ...step(1), ...step(2), finished]);
    const summary = history.summary('20260101T000000-eeeeeeee');
    for (const maxSteps of [1, 2]) {
      expect(() =>
        lineageInput(
          history,
          { kind: 'fork', runId: '20260101T000000-eeeeeeee', step: 2, maxSteps },
          summary,
        ),
      ).toThrow(/--max-steps \(\d\) must be more than the step the fork starts from \(2\)/);
    }
    // an imported history cut after step 1 that names "/" as its mounted workspace
    const hostile = new MemoryRunHistory();
    const lines = [start({ workspace: { path: '/', mode: 'mount' } }), ...step(1)];
    record(hostile, '20260101T000000-ffffffff', lines);
    const exported = exportRun(hostile, '20260101T000000-ffffffff').content;
    const to = new MemoryRunHistory();
    const imported = importRun(to, exported, 'cut.jsonl').summary;
    const error = (() => {
      try {
        lineageInput(to, { kind: 'resume', runId: imported.runId }, to.summary(imported.runId));
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(LineageError);
    expect((error as LineageError).code).toBe('conflict');
    expect((error as Error).message).toMatch(/was imported.*cannot be resumed here/);
    // an agent this app does not have
    record(history, '20260101T000000-99999999', [start({ agent: '../../x' }), ...step(1)]);
    expect(() =>
      lineageInput(
        history,
        { kind: 'fork', runId: '20260101T000000-99999999', step: 1 },
        history.summary('20260101T000000-99999999'),
      ),
    ).toThrow(/made by "..\/..\/x", which the workbench cannot start/);
    // a gateway run: says how to replay or fork it instead
    record(history, '20260101T000000-99999998', [start({ agent: 'external: crew' }), ...step(1)]);
    expect(() =>
      lineageInput(
        history,
        { kind: 'continue', runId: '20260101T000000-99999998', message: 'more' },
        history.summary('20260101T000000-99999998'),
      ),
    ).toThrow(/model gateway.*gateway --replay/);
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
