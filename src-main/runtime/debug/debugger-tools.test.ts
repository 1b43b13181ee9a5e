/**
 * The debugger before tool calls run, against the scripted model through the real
 * client: breakpoints on a tool (with and without an argument pattern), approval mode,
 * and the edits of proposed calls (approve, edit arguments, skip with an observation,
 * add a call). Each test reads the scripted server's request log: the next request must
 * carry the calls as they ran and one tool message per call, in order.
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

/** The assistant message and tool messages that end a request, as compact tuples. */
function tail(messages: ReturnType<DebugHarness['request']>, count: number) {
  return messages.slice(-count).map((m) => ({
    role: m.role,
    content: m.content ?? null,
    ...(m.tool_calls
      ? { calls: m.tool_calls.map((c) => [c.id, c.function.name, c.function.arguments]) }
      : {}),
    ...(m.tool_call_id ? { answers: m.tool_call_id } : {}),
  }));
}

describe('breakpoints on a tool', () => {
  it('pauses before the call runs, says which breakpoint fired, and an edit of the arguments is what runs and what the model sees', async () => {
    h = await startDebugHarness(
      [callReply('echo', { text: 'original' }, 'call_a', 'I will echo'), terminateReply()],
      { breakpoints: ['tool:echo'] },
    );
    const done = h.run();
    const paused = await h.nextPause();
    expect(paused).toMatchObject({
      point: 'before_tools',
      step: 1,
      reasons: [
        {
          kind: 'breakpoint',
          breakpointId: 'bp-1',
          condition: 'tool:echo',
          detail: 'toolcall is about to run echo (call_a)',
        },
      ],
      calls: [{ id: 'call_a', function: { name: 'echo', arguments: '{"text":"original"}' } }],
    });
    // nothing ran and nothing of the reply is in memory yet
    expect(h.echoed).toEqual([]);
    expect(h.of('memory.appended').some((e) => e.message.role === 'assistant')).toBe(false);

    h.debug.edit(
      { kind: 'edit_call', toolCallId: 'call_a', arguments: '{"text": "edited"}' },
      'ui',
    );
    h.debug.resume('continue', 'ui');
    await done;

    expect(h.echoed).toEqual(['edited']);
    expect(tail(h.request(1), 2)).toEqual([
      {
        role: 'assistant',
        content: 'I will echo',
        calls: [['call_a', 'echo', '{"text":"edited"}']],
      },
      {
        role: 'tool',
        content: 'Observed output of cmd `echo` executed:\nedited',
        answers: 'call_a',
      },
    ]);
    expect(h.of('run.edited')).toEqual([
      {
        type: 'run.edited',
        agent: 'toolcall',
        step: 1,
        by: 'ui',
        edit: {
          kind: 'edit_call',
          toolCallId: 'call_a',
          name: 'echo',
          before: '{"text":"original"}',
          after: '{"text":"edited"}',
        },
      },
    ]);
    expect(h.of('run.resumed')).toMatchObject([{ mode: 'continue', by: 'ui', step: 1 }]);
  });

  it('with an argument pattern fires only for matching calls', async () => {
    h = await startDebugHarness(
      [
        callReply('echo', { text: 'harmless' }, 'call_1'),
        callReply('echo', { text: 'rm -rf /' }, 'call_2'),
        terminateReply(),
      ],
      { breakpoints: ['tool:echo:/^rm\\s/'] },
    );
    const done = h.run();
    const paused = await h.nextPause();
    expect(h.echoed).toEqual(['harmless']);
    expect(paused).toMatchObject({
      step: 2,
      reasons: [{ condition: 'tool:echo:/^rm\\s/', detail: expect.stringContaining('call_2') }],
    });
    h.debug.resume('continue', 'ui');
    await done;
    expect(h.echoed).toEqual(['harmless', 'rm -rf /']);
  });

  it('skip answers the call with the observation the user wrote; the tool never runs', async () => {
    h = await startDebugHarness(
      [
        {
          content: null,
          toolCalls: [
            { id: 'call_x', name: 'echo', arguments: { text: 'first' } },
            { id: 'call_y', name: 'echo', arguments: { text: 'second' } },
          ],
        },
        terminateReply(),
      ],
      { breakpoints: ['tool:echo'] },
    );
    const done = h.run();
    await h.nextPause();
    h.debug.edit(
      { kind: 'skip_call', toolCallId: 'call_x', observation: 'Not now: the disk is full.' },
      'ui',
    );
    h.debug.resume('continue', 'ui');
    await done;
    expect(h.echoed).toEqual(['second']);
    expect(tail(h.request(1), 3)).toEqual([
      {
        role: 'assistant',
        content: null,
        calls: [
          ['call_x', 'echo', '{"text":"first"}'],
          ['call_y', 'echo', '{"text":"second"}'],
        ],
      },
      { role: 'tool', content: 'Not now: the disk is full.', answers: 'call_x' },
      {
        role: 'tool',
        content: 'Observed output of cmd `echo` executed:\nsecond',
        answers: 'call_y',
      },
    ]);
    const finished = h.of('tool.finished').find((e) => e.toolCallId === 'call_x');
    expect(finished).toMatchObject({
      ok: false,
      skipped: true,
      error: expect.stringContaining('Skipped by the user'),
    });
  });

  it('an added call goes into the assistant message, runs after the proposed ones, and is answered', async () => {
    h = await startDebugHarness(
      [callReply('echo', { text: 'model' }, 'call_m'), terminateReply()],
      {
        breakpoints: ['tool:echo'],
      },
    );
    const done = h.run();
    await h.nextPause();
    const added = h.debug.edit(
      { kind: 'add_call', name: 'echo', arguments: '{"text":"from the user"}' },
      'ui',
    );
    expect(added.toolCallId).toBe('call_user_1_1');
    expect(() => h!.debug.edit({ kind: 'add_call', name: 'rm', arguments: '{}' }, 'ui')).toThrow(
      /has no tool "rm" \(its tools: echo, shell, boom, terminate\)/,
    );
    expect(() => h!.debug.edit({ kind: 'add_call', name: 'echo', arguments: '[1]' }, 'ui')).toThrow(
      /must be a JSON object/,
    );
    h.debug.resume('continue', 'ui');
    await done;
    expect(h.echoed).toEqual(['model', 'from the user']);
    expect(tail(h.request(1), 3)).toEqual([
      {
        role: 'assistant',
        content: null,
        calls: [
          ['call_m', 'echo', '{"text":"model"}'],
          ['call_user_1_1', 'echo', '{"text":"from the user"}'],
        ],
      },
      {
        role: 'tool',
        content: 'Observed output of cmd `echo` executed:\nmodel',
        answers: 'call_m',
      },
      {
        role: 'tool',
        content: 'Observed output of cmd `echo` executed:\nfrom the user',
        answers: 'call_user_1_1',
      },
    ]);
  });

  it('refuses edits that do not apply where the run waits, and requests on a run that is not paused', async () => {
    h = await startDebugHarness([callReply('echo', { text: 'a' }, 'call_a'), terminateReply()], {
      breakpoints: ['tool:echo'],
    });
    expect(() => h!.debug.resume('continue', 'ui')).toThrow('The run is not paused.');
    expect(() => h!.debug.edit({ kind: 'approve_call', toolCallId: 'x' }, 'ui')).toThrow(
      /not paused/,
    );
    const done = h.run();
    await h.nextPause();
    expect(() => h!.debug.edit({ kind: 'add_message', role: 'user', content: 'hi' }, 'ui')).toThrow(
      'add_message does not apply now: the run is paused before its tool calls run, where the edits are approve_call, edit_call, skip_call, add_call.',
    );
    expect(() => h!.debug.edit({ kind: 'approve_call', toolCallId: 'call_zz' }, 'ui')).toThrow(
      'No proposed call call_zz (the calls are: call_a).',
    );
    h.debug.resume('continue', 'ui');
    await done;
    expect(h.echoed).toEqual(['a']);
  });
});

describe('approval mode', () => {
  it('holds the listed tools for a decision: one call approved, one skipped, other tools run freely', async () => {
    h = await startDebugHarness(
      [
        {
          content: 'three calls',
          toolCalls: [
            { id: 'call_1', name: 'echo', arguments: { text: 'approve me' } },
            { id: 'call_2', name: 'shell', arguments: { exit: 0 } },
            { id: 'call_3', name: 'echo', arguments: { text: 'skip me' } },
          ],
        },
        callReply('shell', { exit: 0 }, 'call_4'),
        terminateReply(),
      ],
      { approveTools: ['echo'] },
    );
    const done = h.run();
    const paused = await h.nextPause();
    expect(paused).toMatchObject({
      point: 'before_tools',
      reasons: [{ kind: 'approval', tools: ['echo'] }],
      awaitingApproval: ['call_1', 'call_3'],
    });
    // the first decision leaves one call waiting: still paused
    expect(h.debug.edit({ kind: 'approve_call', toolCallId: 'call_1' }, 'ui').resumed).toBe(
      undefined,
    );
    expect(h.debug.status.state).toBe('paused');
    // the last one decides everything the pause waited for: the run goes on by itself
    // (issue 25 item 5: it used to need Resume after every Approve)
    expect(
      h.debug.edit(
        { kind: 'skip_call', toolCallId: 'call_3', observation: 'Denied by the user.' },
        'ui',
      ),
    ).toEqual({ applied: true, resumed: true });
    await done;
    expect(h.of('run.resumed')).toMatchObject([{ mode: 'continue', by: 'ui' }]);
    expect(h.echoed).toEqual(['approve me']);
    // the second step called only shell: no pause
    expect(h.of('run.paused')).toHaveLength(1);
    expect(
      h.of('run.edited').map((e) => [e.edit.kind, 'toolCallId' in e.edit ? e.edit.toolCallId : '']),
    ).toEqual([
      ['approve_call', 'call_1'],
      ['skip_call', 'call_3'],
    ]);
    expect(tail(h.request(1), 3).map((m) => [m.role, m.content])).toEqual([
      ['tool', 'Observed output of cmd `echo` executed:\napprove me'],
      ['tool', 'Observed output of cmd `shell` executed:\nexited 0'],
      ['tool', 'Denied by the user.'],
    ]);
  });

  it('stays paused after an edit alone, or when the pause had another reason too', async () => {
    h = await startDebugHarness(
      [
        callReply('echo', { text: 'one' }, 'call_1'),
        callReply('echo', { text: 'two' }, 'call_2'),
        terminateReply(),
      ],
      { approveTools: ['echo'], breakpoints: ['step:2'] },
    );
    const done = h.run();
    await h.nextPause();
    // an edit of the only waiting call is not a decision: the user may still look at it
    expect(
      h.debug.edit({ kind: 'edit_call', toolCallId: 'call_1', arguments: '{"text":"1"}' }, 'ui')
        .resumed,
    ).toBeUndefined();
    expect(h.debug.status.state).toBe('paused');
    expect(h.debug.edit({ kind: 'approve_call', toolCallId: 'call_1' }, 'ui').resumed).toBe(true);
    // step 2: the breakpoint pauses before its model call (nothing to approve there),
    // then the approval pause at its tools ends with the decision
    const atModel = await h.nextPause();
    expect(atModel).toMatchObject({ point: 'before_model', step: 2 });
    expect(() => h!.debug.edit({ kind: 'approve_call', toolCallId: 'call_2' }, 'ui')).toThrow(
      /does not apply now/,
    );
    h.debug.resume('continue', 'ui');
    await h.nextPause();
    expect(h.debug.edit({ kind: 'approve_call', toolCallId: 'call_2' }, 'ui').resumed).toBe(true);
    await done;
    expect(h.echoed).toEqual(['1', 'two']);
  });

  it('a pause for approvals and a breakpoint together waits for Resume', async () => {
    h = await startDebugHarness([callReply('echo', { text: 'ok' }, 'call_1'), terminateReply()], {
      approveTools: ['echo'],
      breakpoints: ['tool:echo'],
    });
    const done = h.run();
    const atTools = await h.nextPause();
    expect(atTools.reasons.map((r) => r.kind).sort()).toEqual(['approval', 'breakpoint']);
    expect(h.debug.edit({ kind: 'approve_call', toolCallId: 'call_1' }, 'ui').resumed).toBe(
      undefined,
    );
    expect(h.debug.status.state).toBe('paused');
    h.debug.resume('continue', 'ui');
    await done;
    expect(h.echoed).toEqual(['ok']);
  });

  it('resuming approves what is still waiting, and says so in the record', async () => {
    h = await startDebugHarness([callReply('echo', { text: 'ok' }, 'call_1'), terminateReply()], {
      approveTools: ['echo'],
    });
    const done = h.run();
    await h.nextPause();
    h.debug.resume('continue', 'terminal');
    await done;
    expect(h.echoed).toEqual(['ok']);
    expect(h.of('run.edited')).toMatchObject([
      { by: 'terminal', edit: { kind: 'approve_call', toolCallId: 'call_1', name: 'echo' } },
    ]);
  });
});
