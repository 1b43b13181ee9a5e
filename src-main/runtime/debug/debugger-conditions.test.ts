/**
 * Breakpoints on conditions the run's events reveal, against the scripted model through
 * the real client: stuck detection, a failed tool or a non-zero exit, a model error (the
 * run pauses instead of ending; resuming retries) or retry, the token and cost budgets.
 * Each pause says which breakpoint fired and why; the next request shows what went on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  callReply,
  startDebugHarness,
  terminateReply,
  type DebugHarness,
} from './testing/debug-harness';

let h: DebugHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('condition breakpoints', () => {
  it('stuck: pauses at the next safe point after stuck detection, before the nudged request', async () => {
    const same = {
      content: 'Let me look again.',
      toolCalls: [{ name: 'echo', arguments: { text: 'x' } }],
    };
    h = await startDebugHarness([same, same, same, terminateReply()], {
      breakpoints: ['stuck'],
    });
    const done = h.run();
    const paused = await h.nextPause();
    // the reply and the calls both repeat: two hits of one step, one reason to pause
    const stuck = h.of('stuck.detected');
    expect(stuck.map((e) => [e.kind, e.step])).toEqual([
      ['content', 3],
      ['tool_calls', 3],
    ]);
    expect(paused).toMatchObject({
      point: 'before_model',
      step: stuck[0]!.step + 1,
      reasons: [
        {
          kind: 'breakpoint',
          condition: 'stuck',
          detail: `toolcall repeated its reply ${stuck[0]!.count}×; toolcall repeated its tool calls ${stuck[1]!.count}×`,
        },
      ],
    });
    // the request the nudge goes with has not been sent yet
    expect(h.server.answered).toHaveLength(stuck[0]!.step);
    h.debug.resume('continue', 'ui');
    await done;
    expect(h.request(stuck[0]!.step).at(-1)?.content).toMatch(/duplicate|stuck|repeat/i);
  });

  it('tool_error: a failed tool and a non-zero exit each pause the run, with the reason', async () => {
    h = await startDebugHarness(
      [
        callReply('boom', {}, 'call_1'),
        callReply('shell', { exit: 0 }, 'call_2'),
        callReply('shell', { exit: 3 }, 'call_3'),
        terminateReply(),
      ],
      { breakpoints: ['tool_error'] },
    );
    const done = h.run();
    const first = await h.nextPause();
    expect(first).toMatchObject({
      point: 'before_model',
      step: 2,
      reasons: [{ condition: 'tool_error', detail: 'boom (call_1) failed: it went boom' }],
    });
    h.debug.resume('continue', 'ui');
    const second = await h.nextPause();
    expect(second).toMatchObject({
      step: 4,
      reasons: [{ condition: 'tool_error', detail: 'shell (call_3) exited with 3' }],
    });
    h.debug.resume('continue', 'ui');
    await done;
    expect(h.of('run.paused')).toHaveLength(2);
  });

  it('model_error: a failed model call pauses instead of ending the run, and resuming tries again', async () => {
    h = await startDebugHarness(
      [callReply('echo', { text: 'a' }, 'call_1'), { error: { status: 500 } }, terminateReply()],
      { breakpoints: ['model_error'] },
    );
    const done = h.run();
    const paused = await h.nextPause();
    expect(paused).toMatchObject({
      point: 'model_error',
      step: 2,
      reasons: [
        { condition: 'model_error', detail: expect.stringMatching(/^the model call failed: /) },
      ],
      error: expect.stringMatching(/500/),
    });
    // the context may be edited before the retry
    h.debug.edit({ kind: 'add_message', role: 'user', content: 'Please try once more.' }, 'ui');
    h.debug.resume('continue', 'ui');
    const result = await done;
    expect(result.outcome).toBe('finished');
    expect(h.server.requests.map((r) => r.index)).toEqual([0, 1, 2]);
    expect(h.request(2).at(-1)).toMatchObject({ role: 'user', content: 'Please try once more.' });
  });

  it('model_error: without the breakpoint a failed model call still ends the run', async () => {
    h = await startDebugHarness([{ error: { status: 500 } }], { breakpoints: ['tool:echo'] });
    const result = await h.run();
    expect(result.outcome).toBe('error');
    expect(h.of('run.paused')).toEqual([]);
  });

  it('model_error: a retried model call pauses at the next safe point; a typed reply can replace a failed call', async () => {
    h = await startDebugHarness(
      [
        { error: { status: 503 } },
        callReply('echo', { text: 'after retry' }, 'call_1'),
        { error: { status: 400 } },
      ],
      { breakpoints: ['model_error'], profile: { maxRetries: 1 } },
    );
    const done = h.run();
    const retried = await h.nextPause();
    expect(retried).toMatchObject({
      point: 'before_tools',
      step: 1,
      reasons: [
        { detail: expect.stringMatching(/^the model call was retried \(attempt 1, HTTP 503\)/) },
      ],
    });
    h.debug.resume('continue', 'ui');
    const failed = await h.nextPause();
    expect(failed).toMatchObject({ point: 'model_error', step: 2 });
    h.debug.edit(
      {
        kind: 'provide_reply',
        content: 'Done.',
        toolCalls: [{ name: 'terminate', arguments: '{"status":"success"}' }],
      },
      'ui',
    );
    h.debug.resume('continue', 'ui');
    const result = await done;
    expect(result).toMatchObject({ outcome: 'finished', terminateStatus: 'success' });
    expect(h.echoed).toEqual(['after retry']);
  });

  it('tokens and cost budgets fire once, when the run passes them', async () => {
    const step = (n: number) =>
      callReply('echo', { text: `step ${n}` }, `call_${n}`, 'x'.repeat(800));
    h = await startDebugHarness([step(1), step(2), step(3), terminateReply()], {
      breakpoints: ['tokens:150', 'cost:0.15'],
    });
    const done = h.run();
    const first = await h.nextPause();
    // gpt-test is priced at $1,000 per million tokens in the harness: both budgets pass at once
    expect(first).toMatchObject({ point: 'before_tools', step: 1 });
    expect(first.reasons.map((r) => (r.kind === 'breakpoint' ? r.condition : r.kind))).toEqual([
      'tokens:150',
      'cost:0.15',
    ]);
    expect(first.reasons[0]).toMatchObject({
      detail: expect.stringMatching(/^the run has used \d+ tokens \(budget 150\)$/),
    });
    expect(first.reasons[1]).toMatchObject({
      detail: expect.stringMatching(/^the run's estimated cost is \$0\.\d{4} \(budget \$0\.15\)$/),
    });
    h.debug.resume('continue', 'ui');
    await done;
    expect(h.of('run.paused')).toHaveLength(1);
  });

  it('a cost budget is refused when a model of the run has no known price', async () => {
    h = await startDebugHarness([terminateReply()], { profile: { model: 'my-local-model' } });
    h.debug.setPricing({ priceOf: () => undefined, models: ['my-local-model'] });
    expect(() => h!.debug.setBreakpoint('cost:1', 'ui')).toThrow(
      /the cost of my-local-model cannot be estimated \(no known price\)\. Set input_price and output_price/,
    );
    expect(h.debug.setBreakpoint('tokens:10k', 'ui')).toMatchObject({
      id: 'bp-1',
      spec: 'tokens:10000',
      origin: 'run',
    });
  });

  it('breakpoints set and cleared during a run are reported, and a cleared one no longer fires', async () => {
    h = await startDebugHarness([
      callReply('echo', { text: 'a' }, 'call_1'),
      callReply('echo', { text: 'b' }, 'call_2'),
      terminateReply(),
    ]);
    h.debug.pause();
    const done = h.run();
    await h.nextPause();
    const bp = h.debug.setBreakpoint('tool:terminate', 'ui');
    h.debug.setBreakpoint('tool:echo', 'ui');
    h.debug.clearBreakpoint('bp-2', 'ui');
    expect(() => h!.debug.clearBreakpoint('bp-9', 'ui')).toThrow(
      'No breakpoint bp-9 in this run (it has: bp-1).',
    );
    h.debug.resume('continue', 'ui');
    const paused = await h.nextPause();
    expect(paused).toMatchObject({ step: 3, reasons: [{ breakpointId: bp.id }] });
    h.debug.resume('continue', 'ui');
    await done;
    expect(h.of('breakpoints.changed').map((e) => e.breakpoints.map((b) => b.spec))).toEqual([
      ['tool:terminate'],
      ['tool:terminate', 'tool:echo'],
      ['tool:terminate'],
    ]);
  });
});
