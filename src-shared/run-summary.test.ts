import { describe, expect, it } from 'vitest';
import {
  createEventStamper,
  type RunEvent,
  type RunEventPayload,
  type RunStartedEvent,
} from './events';
import { summarize } from './run-summary';
import { runVerdict } from './run-outcome';

function run(payloads: RunEventPayload[]): RunEvent[] {
  const stamper = createEventStamper('r1', () => 1000);
  return payloads.map((p) => stamper.stamp(p));
}

const started = (agent: string, flow?: 'planning'): RunEventPayload => ({
  type: 'run.started',
  agent,
  task: 't',
  maxSteps: 20,
  model: 'm',
  sessionId: 's',
  ...(flow ? { flow } : {}),
});

describe('summarize', () => {
  it("carries a batch run's cell (run.started) and its check's verdict (check.finished)", () => {
    const batch = { batchId: 'b-1', item: 't0-p1-r0', taskIndex: 0, profile: 'fast', repeat: 0 };
    const summary = summarize(
      run([
        { ...started('swe'), batch } as RunEventPayload,
        {
          type: 'check.finished',
          command: 'make test',
          ok: false,
          exitCode: 2,
          output: 'FAIL',
          durationMs: 5,
        },
      ]),
    );
    expect(summary).toMatchObject({ batch, check: { ok: false, exitCode: 2 } });
    // runs recorded before batches existed have neither
    expect(summarize(run([started('swe')]))).not.toHaveProperty('batch');
  });

  it("keeps a flow's state on the planner while executors start and finish plan steps", () => {
    const states: string[] = [];
    const events = run([
      started('planning', 'planning'),
      { type: 'state.changed', agent: 'planning', from: 'IDLE', to: 'RUNNING' },
      { type: 'state.changed', agent: 'manus', from: 'IDLE', to: 'RUNNING' },
      { type: 'state.changed', agent: 'manus', from: 'RUNNING', to: 'FINISHED' },
      { type: 'state.changed', agent: 'swe', from: 'IDLE', to: 'RUNNING' },
      { type: 'state.changed', agent: 'swe', from: 'RUNNING', to: 'FINISHED' },
    ]);
    for (let i = 1; i <= events.length; i++) states.push(summarize(events.slice(0, i))!.state);
    expect(states).toEqual(['IDLE', 'RUNNING', 'RUNNING', 'RUNNING', 'RUNNING', 'RUNNING']);
  });

  it('counts tool errors (non-zero exits included), stuck detections, duplicates and retries', () => {
    const summary = summarize(
      run([
        started('manus'),
        {
          type: 'tool.finished',
          agent: 'manus',
          step: 1,
          toolCallId: 'a',
          name: 'bash',
          ok: true,
          output: '',
          exitCode: 1,
          durationMs: 1,
        },
        {
          type: 'tool.finished',
          agent: 'manus',
          step: 1,
          toolCallId: 'b',
          name: 'bash',
          ok: true,
          output: '',
          exitCode: 0,
          durationMs: 1,
        },
        {
          type: 'tool.finished',
          agent: 'manus',
          step: 2,
          toolCallId: 'c',
          name: 'python_execute',
          ok: false,
          output: '',
          error: 'x',
          durationMs: 1,
        },
        {
          // skipped by the user in the debugger: a call, not an error
          type: 'tool.finished',
          agent: 'manus',
          step: 2,
          toolCallId: 'd',
          name: 'bash',
          ok: false,
          output: '',
          error: 'Skipped by the user; the model is told: no',
          durationMs: 0,
          skipped: true,
        },
        {
          type: 'stuck.detected',
          agent: 'manus',
          step: 2,
          kind: 'content',
          count: 3,
          duplicateOf: [1, 3],
        },
        {
          type: 'memory.appended',
          agent: 'manus',
          index: 5,
          message: { role: 'assistant', content: 'again' },
          duplicate: 'content',
        },
        {
          type: 'memory.appended',
          agent: 'manus',
          index: 7,
          message: { role: 'assistant', content: 'new' },
        },
        {
          type: 'llm.retried',
          agent: 'manus',
          step: 3,
          attempt: 1,
          status: 429,
          delayMs: 10,
          error: 'rate',
        },
        {
          type: 'run.finished',
          outcome: 'finished',
          state: 'FINISHED',
          steps: 3,
          usage: { prompt: 1, completion: 1 },
          terminateStatus: 'success',
        },
      ]),
    )!;
    expect(summary.health).toEqual({
      toolCalls: 4,
      toolErrors: 2,
      stuck: 1,
      duplicates: 1,
      retries: 1,
    });
    expect(summary.terminateStatus).toBe('success');
    expect(runVerdict(summary).label).toBe('finished with 2 tool errors');
  });
});

describe('paused', () => {
  it('is paused from run.paused until run.resumed or run.finished', () => {
    const paused: RunEventPayload = {
      type: 'run.paused',
      agent: 'manus',
      step: 1,
      point: 'before_tools',
      reasons: [{ kind: 'approval', tools: ['bash'] }],
    };
    const resumed: RunEventPayload = {
      type: 'run.resumed',
      agent: 'manus',
      step: 1,
      mode: 'continue',
      by: 'ui',
      pausedMs: 1,
    };
    const finished: RunEventPayload = {
      type: 'run.finished',
      outcome: 'cancelled',
      state: 'FINISHED',
      steps: 1,
      usage: { prompt: 0, completion: 0 },
    };
    expect(summarize(run([started('manus'), paused]))?.isPaused).toBe(true);
    expect(summarize(run([started('manus'), paused, resumed]))?.isPaused).toBeUndefined();
    expect(summarize(run([started('manus'), paused, finished]))?.isPaused).toBeUndefined();
    expect(runVerdict(summarize(run([started('manus'), paused]))!).label).toBe('paused');
  });
});

describe('a non-zero exit', () => {
  it('is one tool error, whether its history says ok (before issue 25) or not ok', () => {
    const health = (isOk: boolean) =>
      summarize(
        run([
          started('swe'),
          {
            type: 'tool.finished',
            agent: 'swe',
            step: 1,
            toolCallId: 'a',
            name: 'bash',
            ok: isOk,
            output: '(exit code 1)',
            exitCode: 1,
            durationMs: 1,
          },
        ]),
      )!.health;
    expect(health(false)).toEqual(health(true));
    expect(health(false)).toMatchObject({ toolCalls: 1, toolErrors: 1 });
  });
});

describe('lineage', () => {
  it('carries a fork’s and a resumed run’s origin from run.started into the summary', () => {
    const fork = summarize(
      run([{ ...(started('manus') as RunStartedEvent), forkOf: { runId: 'p', step: 2 } }]),
    )!;
    expect(fork.forkOf).toEqual({ runId: 'p', step: 2 });
    const resumed = summarize(
      run([{ ...(started('manus') as RunStartedEvent), resumeOf: { runId: 'k', step: 4 } }]),
    )!;
    expect(resumed.resumeOf).toEqual({ runId: 'k', step: 4 });
    // Runs recorded before lineage existed have none.
    expect(summarize(run([started('manus')]))!.forkOf).toBeUndefined();
  });
});
