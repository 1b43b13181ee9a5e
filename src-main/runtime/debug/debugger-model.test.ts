/**
 * The debugger before a model call, against the scripted model through the real client:
 * pause by the user, step mode (one cycle, or only the model call), and the edits of the
 * context (edit a message, add one, change the model or temperature, type the reply).
 * The scripted server's request log shows exactly what the next request carried.
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

const roles = (messages: ReturnType<DebugHarness['request']>) =>
  messages.map((m) => [m.role, m.content ?? null]);

describe('pause and step', () => {
  it('a pause asked for during the model call takes effect before the tool calls; step runs one cycle', async () => {
    h = await startDebugHarness([
      { ...callReply('echo', { text: 'one' }, 'call_1'), delayMs: 300 },
      callReply('echo', { text: 'two' }, 'call_2'),
      callReply('echo', { text: 'three' }, 'call_3'),
      terminateReply(),
    ]);
    const done = h.run();
    // the model is answering: the pause waits for the next safe point
    await new Promise((r) => setTimeout(r, 50));
    expect(h.debug.pause()).toEqual({ state: 'pausing' });
    const first = await h.nextPause();
    expect(first).toMatchObject({ point: 'before_tools', step: 1, reasons: [{ kind: 'user' }] });
    expect(h.debug.status).toEqual({ state: 'paused' });
    expect(h.echoed).toEqual([]);

    h.debug.resume('cycle', 'ui');
    const second = await h.nextPause();
    // the calls of step 1 ran, and the run waits before step 2's model call
    expect(second).toMatchObject({
      point: 'before_model',
      step: 2,
      reasons: [{ kind: 'step', scope: 'cycle' }],
    });
    expect(h.echoed).toEqual(['one']);
    expect(h.server.answered).toHaveLength(1);

    h.debug.resume('model', 'ui');
    const third = await h.nextPause();
    // only the model call ran: its proposed calls are shown, none has run
    expect(third).toMatchObject({
      point: 'before_tools',
      step: 2,
      reasons: [{ kind: 'step', scope: 'model' }],
      calls: [{ id: 'call_2' }],
    });
    expect(h.echoed).toEqual(['one']);
    expect(h.server.answered).toHaveLength(2);

    h.debug.resume('continue', 'ui');
    const result = await done;
    expect(result.outcome).toBe('finished');
    expect(h.echoed).toEqual(['one', 'two', 'three']);
    expect(h.of('run.resumed').map((e) => e.mode)).toEqual(['cycle', 'model', 'continue']);
  });

  it('a paused run that is stopped ends at once as cancelled, every call answered', async () => {
    h = await startDebugHarness(
      [callReply('echo', { text: 'never' }, 'call_1'), terminateReply()],
      { breakpoints: ['tool:echo'] },
    );
    const done = h.run();
    await h.nextPause();
    const stopped = performance.now();
    h.stop();
    const result = await done;
    expect(performance.now() - stopped).toBeLessThan(500);
    expect(result.outcome).toBe('cancelled');
    expect(h.echoed).toEqual([]);
    // the proposal is kept in memory, its call answered (the harness checks the pairing)
    expect(h.agent.memory.messages.at(-1)).toMatchObject({
      role: 'tool',
      tool_call_id: 'call_1',
      content: 'Error: Cancelled: the run was stopped before this call completed.',
    });
    expect(h.of('run.resumed')).toEqual([]);
  });
});

describe('edits before a model call', () => {
  it('edit a message and add one: the next request carries exactly the edited context', async () => {
    h = await startDebugHarness(
      [callReply('echo', { text: 'a' }, 'call_1', 'first reply'), terminateReply()],
      { breakpoints: ['step:2'] },
    );
    const done = h.run('the original task');
    const paused = await h.nextPause();
    expect(paused).toMatchObject({
      point: 'before_model',
      step: 2,
      reasons: [
        { kind: 'breakpoint', condition: 'step:2', detail: 'step 2 is about to call the model' },
      ],
    });
    h.debug.edit({ kind: 'edit_message', index: 0, content: 'the edited task' }, 'ui');
    const added = h.debug.edit(
      { kind: 'add_message', role: 'user', content: 'Hint: finish now.' },
      'ui',
    );
    expect(added.index).toBe(3);
    expect(() => h!.debug.edit({ kind: 'edit_message', index: 99, content: 'x' }, 'ui')).toThrow(
      "Message #99 is not in toolcall's context window (it holds #0–#3).",
    );
    h.debug.resume('continue', 'ui');
    await done;
    expect(roles(h.request(0))).toEqual([['user', 'the original task']]);
    expect(roles(h.request(1))).toEqual([
      ['user', 'the edited task'],
      ['assistant', 'first reply'],
      ['tool', 'Observed output of cmd `echo` executed:\na'],
      ['user', 'Hint: finish now.'],
    ]);
    expect(h.of('run.edited').map((e) => e.edit)).toEqual([
      {
        kind: 'edit_message',
        index: 0,
        role: 'user',
        before: 'the original task',
        after: 'the edited task',
      },
      { kind: 'add_message', index: 3, role: 'user', content: 'Hint: finish now.' },
    ]);
  });

  it('a typed reply stands in for the model call; its calls run and the model sees it as its own', async () => {
    h = await startDebugHarness([terminateReply()], { breakpoints: ['step:1'] });
    const done = h.run();
    await h.nextPause();
    h.debug.edit(
      {
        kind: 'provide_reply',
        content: 'I will echo first.',
        toolCalls: [{ name: 'echo', arguments: '{"text":"typed"}' }],
      },
      'ui',
    );
    h.debug.resume('continue', 'ui');
    const result = await done;
    expect(result.outcome).toBe('finished');
    expect(h.echoed).toEqual(['typed']);
    // one model request only: the typed reply replaced the first
    expect(h.server.answered).toHaveLength(1);
    expect(
      h
        .request(0)
        .slice(1)
        .map((m) => [m.role, m.content ?? null, m.tool_calls?.[0]?.function.arguments ?? null]),
    ).toEqual([
      ['assistant', 'I will echo first.', '{"text":"typed"}'],
      ['tool', 'Observed output of cmd `echo` executed:\ntyped', null],
    ]);
    expect(h.of('llm.requested')).toHaveLength(1);
    expect(h.of('run.edited')[0]?.edit).toMatchObject({
      kind: 'provide_reply',
      toolCalls: [{ id: 'call_user_1_1', function: { name: 'echo' } }],
    });
  });

  it('changing the temperature and the profile holds for the rest of the run', async () => {
    h = await startDebugHarness(
      [
        callReply('echo', { text: 'a' }, 'call_1'),
        callReply('echo', { text: 'b' }, 'call_2'),
        terminateReply(),
      ],
      { breakpoints: ['step:2'] },
    );
    const done = h.run();
    await h.nextPause();
    h.debug.edit({ kind: 'change_model', temperature: 1.5 }, 'ui');
    h.debug.edit({ kind: 'change_model', profile: 'other' }, 'ui');
    expect(() => h!.debug.edit({ kind: 'change_model', profile: 'nope' }, 'ui')).toThrow(
      'There is no profile [llm.nope]',
    );
    h.debug.resume('continue', 'ui');
    await done;
    const sent = h.server.answered.map((r) => [r.model, r.body['temperature']]);
    expect(sent).toEqual([
      ['gpt-test', 0],
      ['gpt-other', 1.5],
      ['gpt-other', 1.5],
    ]);
    expect(h.of('run.edited').map((e) => e.edit)).toEqual([
      {
        kind: 'change_model',
        before: { model: 'gpt-test', profile: 'default', temperature: 0 },
        after: { model: 'gpt-test', profile: 'default', temperature: 1.5 },
      },
      {
        kind: 'change_model',
        before: { model: 'gpt-test', profile: 'default', temperature: 1.5 },
        after: { model: 'gpt-other', profile: 'other', temperature: 1.5 },
      },
    ]);
  });
});
