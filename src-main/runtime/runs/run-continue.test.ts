/**
 * Where a continuation may start (run-lineage.ts, docs/time-travel.md "Continue a
 * finished run"): a finished run of any outcome, after its last step, with the follow-up
 * as its task, in its own session and workspace, on the profile it used; refused up
 * front (typed) for a run still going, paused or interrupted, a flow, an imported run,
 * a run that never talked, an empty message. Export and import keep `continueOf`.
 */
import { describe, expect, it } from 'vitest';
import { createEventStamper, type RunEvent, type RunEventPayload } from '@shared/events';
import type { RunOutcome } from '@shared/domain/agent';
import { MemoryRunHistory } from './run-history';
import { lineageInput, LineageError, type LineageRequest } from './run-lineage';
import { exportRun, importRun } from './run-transfer';

const A = '20260101T000000-aaaaaaaa';

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
    agent: 'swe',
    task: 'the task',
    maxSteps: 20,
    model: 'm',
    sessionId: 's-1',
    settings: { 'llm.profile': 'fast' },
    ...extra,
  }) as RunEventPayload;
const said = (index: number, role: 'user' | 'assistant', content: string): RunEventPayload => ({
  type: 'memory.appended',
  agent: 'swe',
  index,
  message: { role, content },
});
const step = (n: number): RunEventPayload[] => [
  { type: 'step.started', agent: 'swe', step: n, maxSteps: 20 },
  said(n, 'assistant', `step ${n}`),
  { type: 'step.finished', agent: 'swe', step: n, durationMs: 1 },
];
const end = (outcome: RunOutcome = 'finished'): RunEventPayload => ({
  type: 'run.finished',
  outcome,
  state: outcome === 'error' ? 'ERROR' : 'FINISHED',
  steps: 2,
  usage: { prompt: 0, completion: 0 },
});
const talk = [said(0, 'user', 'the task'), ...step(1), ...step(2)];

function refusal(
  history: MemoryRunHistory,
  request: LineageRequest,
  summary = history.summary(request.runId),
) {
  try {
    lineageInput(history, request, summary);
  } catch (error) {
    if (error instanceof LineageError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('continue a finished run', () => {
  it('goes on after the last step, in the same session, on the profile the run used, whatever its outcome', () => {
    const history = new MemoryRunHistory();
    for (const [i, outcome] of (
      ['finished', 'max_steps', 'error', 'cancelled'] as const
    ).entries()) {
      const runId = `20260101T00000${i}-aaaaaaaa`;
      record(history, runId, [start(), ...talk, end(outcome)]);
      const { input, lineage } = lineageInput(
        history,
        { kind: 'continue', runId, message: '  And now the tests.  ', maxSteps: 4 },
        history.summary(runId),
      );
      expect(input).toEqual({
        task: 'And now the tests.',
        agent: 'swe',
        maxSteps: 4,
        sessionId: 's-1',
      });
      expect(lineage).toMatchObject({
        kind: 'continue',
        from: { runId, step: 2 },
        message: 'And now the tests.',
        agentModel: 'fast',
      });
      expect(lineage.seq).toBe(history.read(runId)!.events.at(-1)!.seq);
    }
  });

  it('works where the run worked: its mounted folder, or the copy the first run of the chain made', () => {
    const history = new MemoryRunHistory();
    const B = '20260101T000000-bbbbbbbb';
    const C = '20260101T000000-cccccccc';
    record(history, A, [
      start({ workspace: { path: '/src/app', mode: 'copy', copyPath: `/h/copy-${A}` } }),
      ...talk,
      end(),
    ]);
    // B continues A (in A's copy), C continues B: the copy is still A's
    record(history, B, [
      start({
        workspace: { path: '/src/app', mode: 'copy', copyPath: `/h/copy-${A}` },
        continueOf: { runId: A, step: 2 },
      }),
      ...talk,
      end(),
    ]);
    const fromB = lineageInput(
      history,
      { kind: 'continue', runId: B, message: 'go' },
      history.summary(B),
    );
    expect(fromB.input.workspace).toEqual({ path: '/src/app', mode: 'copy' });
    expect(fromB.lineage.workspaceCopyOf).toBe(A);
    record(history, C, [start({ workspace: { path: '/src/app', mode: 'mount' } }), ...talk, end()]);
    const fromC = lineageInput(
      history,
      { kind: 'continue', runId: C, message: 'go' },
      history.summary(C),
    );
    expect(fromC.input.workspace).toEqual({ path: '/src/app', mode: 'mount' });
    expect(fromC.lineage.workspaceCopyOf).toBeUndefined();
  });

  it('refuses a run still going, paused or interrupted, a flow, an imported run, a run that never talked, an empty message', () => {
    const history = new MemoryRunHistory();
    record(history, A, [start(), ...talk]);
    const live = history.summary(A)!;
    expect(refusal(history, { kind: 'continue', runId: A, message: 'x' }, live).message).toMatch(
      /cannot be continued: it is still running/,
    );
    expect(
      refusal(history, { kind: 'continue', runId: A, message: 'x' }, { ...live, isPaused: true })
        .message,
    ).toMatch(/is paused in the debugger/);
    const killed = refusal(
      history,
      { kind: 'continue', runId: A, message: 'x' },
      { ...live, isInterrupted: true },
    );
    expect(killed.code).toBe('conflict');
    expect(killed.message).toMatch(/was interrupted .*resume it instead \(workbench runs resume/);

    const F = '20260101T000000-ffffffff';
    record(history, F, [start({ flow: 'planning' }), ...talk, end()]);
    expect(refusal(history, { kind: 'continue', runId: F, message: 'x' }).message).toMatch(
      /Continuing a PlanningFlow run is not supported/,
    );

    const E = '20260101T000000-eeeeeeee';
    record(history, E, [start({ model: 'unknown' }), end('error')]);
    expect(refusal(history, { kind: 'continue', runId: E, message: 'x' }).message).toMatch(
      /ended before its agent had a conversation/,
    );

    const D = '20260101T000000-dddddddd';
    record(history, D, [start(), ...talk, end()]);
    const empty = refusal(history, { kind: 'continue', runId: D, message: ' \n ' });
    expect(empty.code).toBe('invalid_input');

    const to = new MemoryRunHistory();
    const imported = importRun(to, exportRun(history, D).content, 'd.jsonl').summary;
    const foreign = refusal(to, { kind: 'continue', runId: imported.runId, message: 'x' });
    expect(foreign.code).toBe('conflict');
    expect(foreign.message).toMatch(/was imported.*cannot be continued here/);

    expect(
      refusal(history, { kind: 'continue', runId: '20260101T000000-00000000', message: 'x' }).code,
    ).toBe('not_found');
  });

  it('export and import keep a continuation’s lineage', () => {
    const from = new MemoryRunHistory();
    const B = '20260101T000000-bbbbbbbb';
    record(from, B, [start({ continueOf: { runId: A, step: 2 } }), ...step(3), end()]);
    const to = new MemoryRunHistory();
    const imported = importRun(to, exportRun(from, B).content, 'b.jsonl');
    expect(imported.summary.continueOf).toEqual({ runId: A, step: 2 });
    expect(to.read(B)!.events[0]).toMatchObject({ continueOf: { runId: A, step: 2 } });
  });
});
