import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventPayload } from '@shared/events';
import { formatEvent } from './format-event';

const at = (payload: RunEventPayload): RunEvent => ({
  v: 1,
  runId: 'r1',
  seq: 1,
  ts: 0,
  ...payload,
});

describe('formatEvent', () => {
  it('writes one readable line for the events a user follows, and none for the noise', () => {
    expect(
      formatEvent(
        at({
          type: 'run.started',
          agent: 'swe',
          task: 'fix\nthe  bug',
          maxSteps: 20,
          model: 'gpt-4o',
          sessionId: 's',
        }),
      ),
    ).toBe('▶ run r1: swe on gpt-4o (max 20 steps)\n  task: fix the bug');
    expect(
      formatEvent(
        at({
          type: 'run.started',
          agent: 'swe',
          task: 'now the tests',
          maxSteps: 24,
          model: 'gpt-4o',
          sessionId: 's',
          continueOf: { runId: 'r0', step: 4 },
        }),
      ),
    ).toBe(
      '▶ run r1: swe on gpt-4o (max 24 steps)\n  task: now the tests\n  continues run r0 after its step 4',
    );
    expect(
      formatEvent(
        at({
          type: 'llm.retried',
          agent: 'swe',
          step: 2,
          attempt: 1,
          status: 429,
          delayMs: 2000,
          error: 'Rate limited',
        }),
      ),
    ).toBe('  ↻ model call failed (429); retry 1 in 2.0 s: Rate limited');
    expect(
      formatEvent(
        at({
          type: 'stuck.detected',
          agent: 'swe',
          step: 3,
          kind: 'tool_calls',
          count: 3,
          duplicateOf: [1, 3],
        }),
      ),
    ).toBe(
      '  ⚠ stuck: the same tool calls 3× (earlier: #1, #3); nudging the model to change strategy',
    );
    expect(
      formatEvent(
        at({
          type: 'tool.finished',
          agent: 'swe',
          step: 1,
          toolCallId: 'c',
          name: 'bash',
          ok: false,
          output: '',
          error: 'timed out',
          durationMs: 5,
        }),
      ),
    ).toBe('  ✗ bash: timed out');
    expect(
      formatEvent(
        at({
          type: 'run.finished',
          outcome: 'error',
          state: 'ERROR',
          steps: 2,
          usage: { prompt: 10, completion: 3 },
          error: 'boom',
        }),
      ),
    ).toBe('■ error after 2 steps (10 prompt + 3 completion tokens): boom');
    expect(formatEvent(at({ type: 'llm.delta', agent: 'swe', step: 1, text: 'x' }))).toBeNull();
  });

  it("says a batch check's verdict and why a model call waits for its profile", () => {
    const check = {
      type: 'check.finished',
      command: 'make test',
      output: '',
      durationMs: 5,
    } as const;
    expect(formatEvent(at({ ...check, ok: true, exitCode: 0 }))).toBe(
      '  ✓ check passed: make test',
    );
    expect(formatEvent(at({ ...check, ok: false, exitCode: 2 }))).toBe(
      '  ✗ check failed (exit 2): make test',
    );
    const score = { type: 'score.recorded', kind: 'judge', durationMs: 3 } as const;
    expect(
      formatEvent(
        at({
          ...score,
          scorer: 'judge',
          score: 0.8999,
          passed: true,
          explanation: 'mostly\nright',
          judge: {
            profile: 'j',
            model: 'm-j',
            request: [],
            reply: '{}',
            usage: { prompt: 1, completion: 1 },
          },
        }),
      ),
    ).toBe('  ✓ score judge 0.9 (judge m-j): mostly right');
    expect(
      formatEvent(
        at({ ...score, kind: 'answer', scorer: 'a', score: 0, passed: false, explanation: 'no' }),
      ),
    ).toBe('  ✗ score a 0: no');
    const queued = { type: 'llm.queued', agent: 'swe', step: 1, model: 'm' } as const;
    expect(formatEvent(at({ ...queued, reason: 'max_concurrency', ahead: 1, capacity: 2 }))).toBe(
      '  … m: 2 calls of this profile in flight, 1 ahead (max_concurrency)',
    );
    expect(formatEvent(at({ ...queued, reason: 'rate_limited', delayMs: 1500 }))).toBe(
      '  … m rests 1.5 s after a 429 (this profile only)',
    );
  });

  it('says which engine a sandbox went to when [sandbox] engines lists several', () => {
    const ready = {
      type: 'sandbox.changed',
      status: 'ready',
      image: 'i',
      containerId: 'c',
    } as const;
    expect(formatEvent(at({ ...ready, engine: 'tcp://build-1:2376 (TLS)' }))).toBe(
      '  sandbox on tcp://build-1:2376 (TLS)',
    );
    expect(formatEvent(at(ready))).toBeNull();
  });

  it('says when a checkpoint left files out or checkpointing stopped (issue 24)', () => {
    const message =
      'Checkpointing stopped at step 3: the disk holding the run history is full (1.2 MB free, 400.0 KB kept for the histories). ' +
      'The steps before it can still be forked with their files; later ones cannot.';
    expect(
      formatEvent(
        at({
          type: 'checkpoint.limited',
          agent: 'swe',
          step: 3,
          action: 'stopped',
          reason: 'disk_full',
          bytes: 0,
          limit: 1_250_000,
          message,
        }),
      ),
    ).toBe(`  ⚠ ${message}`);
  });

  it('keeps long outputs to one short line', () => {
    const line = formatEvent(
      at({
        type: 'tool.finished',
        agent: 'a',
        step: 1,
        toolCallId: 'c',
        name: 'bash',
        ok: true,
        output: 'y\n'.repeat(500),
        durationMs: 1,
      }),
    )!;
    expect(line.includes('\n')).toBe(false);
    expect(line.length).toBeLessThan(200);
  });

  it('never marks a command that exited non-zero with a check mark', () => {
    const finished = (exitCode: number) =>
      formatEvent(
        at({
          type: 'tool.finished',
          agent: 'swe',
          step: 1,
          toolCallId: 'c',
          name: 'bash',
          ok: true,
          output: 'no such file',
          exitCode,
          durationMs: 3,
        }),
      );
    expect(finished(1)).toBe('  ✗ bash (exit 1): no such file');
    expect(finished(0)).toBe('  ✓ bash (exit 0): no such file');
  });
});

// Issue 12 item 7: escape sequences in model or tool text reached the terminal raw.
describe('formatEvent with terminal escape sequences in the text', () => {
  const hostile: [string, string, string][] = [
    ['a window title (OSC)', 'ok\u001b]0;pwned\u0007', 'ok\\x1b]0;pwned\\x07'],
    [
      'a clipboard write (OSC 52)',
      '\u001b]52;c;Y3VybCBldmls\u0007',
      '\\x1b]52;c;Y3VybCBldmls\\x07',
    ],
    ['a screen clear (CSI)', '\u001b[2J\u001b[H', '\\x1b[2J\\x1b[H'],
    ['a one-byte CSI (C1)', '\u009b31mred', '\\x9b31mred'],
    // one-line output folds \r into a space; elsewhere (run errors) it is shown as \r
    ['a carriage return over the line', 'rm -rf /\rls', 'rm -rf / ls'],
    ['a backspace', 'abc\u0008\u0008x', 'abc\\x08\\x08x'],
    ['a right-to-left override', 'file\u202etxt.exe', 'file\\u202etxt.exe'],
    ['DEL', 'a\u007fb', 'a\\x7fb'],
  ];

  it.each(hostile)('shows %s as visible text', (_, raw, shown) => {
    const line = formatEvent(
      at({
        type: 'tool.finished',
        agent: 'swe',
        step: 1,
        toolCallId: 'c1',
        name: 'bash',
        ok: true,
        output: raw,
        exitCode: 0,
        durationMs: 1,
      }),
    );
    expect(line).toBe(`  ✓ bash (exit 0): ${shown}`);
    // eslint-disable-next-line no-control-regex -- the point of the check
    expect(line).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
  });

  it('escapes every field, also the run error and the task', () => {
    const finished = formatEvent(
      at({
        type: 'run.finished',
        outcome: 'error',
        state: 'ERROR',
        steps: 1,
        usage: { prompt: 1, completion: 1 },
        error: 'boom\u001b[8m\rok',
      }),
    );
    expect(finished).toContain('boom\\x1b[8m\\rok');
    const started = formatEvent(
      at({
        type: 'run.started',
        agent: 'swe',
        task: 'x\u001b[31m',
        maxSteps: 1,
        model: 'm\u009b',
        sessionId: 's',
      }),
    );
    expect(started).toBe('▶ run r1: swe on m\\x9b (max 1 steps)\n  task: x\\x1b[31m');
  });
});
