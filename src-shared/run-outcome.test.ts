import { describe, expect, it } from 'vitest';
import type { RunHealth } from './domain/runs';
import {
  hasErrors,
  healthParts,
  isToolFailure,
  runVerdict,
  stepsText,
  verdictExitCode,
} from './run-outcome';

const health = (patch: Partial<RunHealth> = {}): RunHealth => ({
  toolCalls: 3,
  toolErrors: 0,
  stuck: 0,
  duplicates: 0,
  retries: 0,
  ...patch,
});

describe('isToolFailure', () => {
  it('counts an error and a non-zero exit code as a failure, never as ok', () => {
    expect(isToolFailure({ ok: true })).toBe(false);
    expect(isToolFailure({ ok: true, exitCode: 0 })).toBe(false);
    expect(isToolFailure({ ok: true, exitCode: 1 })).toBe(true);
    expect(isToolFailure({ ok: false })).toBe(true);
  });

  it('does not count a call the user skipped in the debugger (it never ran)', () => {
    expect(isToolFailure({ ok: false, skipped: true })).toBe(false);
    expect(isToolFailure({ ok: false, skipped: false })).toBe(true);
  });
});

describe('runVerdict', () => {
  it('is green only when the run finished and no tool call failed', () => {
    expect(runVerdict({ outcome: 'finished', health: health() })).toEqual({
      kind: 'finished',
      label: 'finished',
      tone: 'good',
    });
    expect(runVerdict({ outcome: 'finished', health: health({ toolErrors: 2 }) })).toEqual({
      kind: 'finished_with_errors',
      label: 'finished with 2 tool errors',
      tone: 'warn',
    });
    expect(runVerdict({ outcome: 'finished', health: health({ toolErrors: 1 }) }).label).toBe(
      'finished with 1 tool error',
    );
  });

  it('says when the agent itself reported failure', () => {
    const verdict = runVerdict({ outcome: 'finished', terminateStatus: 'failure' });
    expect(verdict).toMatchObject({ kind: 'agent_failed', tone: 'bad' });
    expect(verdict.label).toContain('the agent reported failure');
  });

  it('gives stopped, limited, failed, interrupted and live runs their own badge', () => {
    expect(runVerdict({ outcome: 'cancelled' })).toMatchObject({
      label: 'cancelled',
      tone: 'neutral',
    });
    expect(runVerdict({ outcome: 'max_steps' })).toMatchObject({ label: 'max steps reached' });
    expect(runVerdict({ outcome: 'error' })).toMatchObject({ kind: 'error', tone: 'bad' });
    expect(runVerdict({ isInterrupted: true })).toMatchObject({ kind: 'interrupted' });
    expect(runVerdict({})).toMatchObject({ kind: 'running', tone: 'live' });
    expect(runVerdict({ isPaused: true })).toMatchObject({ kind: 'paused', label: 'paused' });
    // killed while paused: it is not waiting any more
    expect(runVerdict({ isPaused: true, isInterrupted: true })).toMatchObject({
      kind: 'interrupted',
    });
  });
});

describe('verdictExitCode', () => {
  it('maps each verdict to the documented exit code', () => {
    expect(verdictExitCode('finished')).toBe(0);
    expect(verdictExitCode('finished_with_errors')).toBe(0);
    expect(verdictExitCode('agent_failed')).toBe(1);
    expect(verdictExitCode('error')).toBe(1);
    expect(verdictExitCode('max_steps')).toBe(3);
    expect(verdictExitCode('cancelled')).toBe(130);
    expect(verdictExitCode('interrupted')).toBe(130);
  });
});

describe('the health line', () => {
  it('lists only what happened, worst first', () => {
    expect(healthParts(health())).toEqual([]);
    expect(
      healthParts(health({ toolErrors: 2, stuck: 1, duplicates: 3, retries: 1 })).map(
        (p) => p.text,
      ),
    ).toEqual(['2 tool errors of 3', 'stuck 1×', '3 duplicates', '1 retry']);
  });

  it('writes steps as "steps N/MAX", never a bare fraction', () => {
    expect(stepsText({ steps: 4, maxSteps: 20 })).toBe('steps 4/20');
    expect(stepsText({ steps: 0, maxSteps: 0 })).toBe('steps 0');
  });

  it('flags runs with errors for the history filter', () => {
    expect(hasErrors({ outcome: 'finished', health: health() })).toBe(false);
    expect(hasErrors({ outcome: 'finished', health: health({ toolErrors: 1 }) })).toBe(true);
    expect(hasErrors({ outcome: 'error' })).toBe(true);
    expect(hasErrors({ outcome: 'cancelled' })).toBe(false);
  });
});
