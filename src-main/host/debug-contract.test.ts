/**
 * The debugger's contract entries (issue 13) round-tripped over the real WebSocket
 * transport with the UI's own adapter. contract.test.ts checks that every channel is
 * covered here or there.
 */
import { describe, expect, it } from 'vitest';
import { collect, finishedOf, serve, until } from './testing/ws-contract-fixture';

/** (the coverage is asserted by contract.test.ts, which reads these names) */
const mark = (...channels: string[]) => channels;

describe('contract over WebSocket: the debugger', () => {
  it('debug:pause, debug:step, debug:resume, debug:set-breakpoint, debug:clear-breakpoint, debug:set-approval, debug:edit', async () => {
    const { api } = await serve();
    const events = collect(api);
    const { runId } = await api.startRun({
      task: 'steps: 3',
      agent: 'toolcall',
      breakpoints: ['tool:note'],
    });
    const pausedAt = (n: number) =>
      until(() => {
        const paused = events.filter((e) => e.runId === runId && e.type === 'run.paused');
        return paused.length >= n ? paused[n - 1] : undefined;
      });
    const first = await pausedAt(1);
    expect(first).toMatchObject({ point: 'before_tools', reasons: [{ condition: 'tool:note' }] });
    const callId = first.type === 'run.paused' ? first.calls![0]!.id : '';
    expect(
      await api.editRun({
        runId,
        edit: { kind: 'edit_call', toolCallId: callId, arguments: '{"text":"edited"}' },
      }),
    ).toEqual({ applied: true });
    await expect(
      api.editRun({ runId, edit: { kind: 'add_message', role: 'user', content: 'x' } }),
    ).rejects.toMatchObject({ code: 'conflict', message: /add_message does not apply now/ });
    const bp = await api.setBreakpoint({ runId, spec: 'step:3' });
    expect(bp).toEqual({
      id: 'bp-2',
      condition: { kind: 'step', step: 3 },
      spec: 'step:3',
      origin: 'run',
    });
    expect(await api.clearBreakpoint({ runId, id: 'bp-1' })).toEqual({ cleared: true });
    await expect(api.clearBreakpoint({ runId, id: 'bp-1' })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await api.setApproval({ runId, tools: ['terminate'] })).toEqual({
      approvals: [{ tool: 'terminate' }],
    });
    expect(await api.stepRun({ runId, scope: 'cycle' })).toEqual({ state: 'pausing' });
    expect(await pausedAt(2)).toMatchObject({ point: 'before_model', reasons: [{ kind: 'step' }] });
    expect(await api.resumeRun({ runId })).toEqual({ state: 'running' });
    expect(await pausedAt(3)).toMatchObject({ reasons: [{ condition: 'step:3' }] });
    expect(await api.pauseRun({ runId })).toEqual({ state: 'paused' });
    await api.resumeRun({ runId });
    expect(await pausedAt(4)).toMatchObject({
      reasons: [{ kind: 'approval', tools: ['terminate'] }],
    });
    await api.resumeRun({ runId });
    await until(() => finishedOf(events, runId));
    const mine = events.filter((e) => e.runId === runId);
    expect(mine.find((e) => e.type === 'tool.finished')).toMatchObject({ output: 'noted: edited' });
    expect(
      mine
        .filter((e) => e.type === 'run.edited')
        .map((e) => e.type === 'run.edited' && e.edit.kind),
    ).toEqual(['edit_call', 'approve_call']);
    await expect(api.resumeRun({ runId })).rejects.toMatchObject({
      code: 'conflict',
      message: `Run ${runId} has ended: there is nothing to debug.`,
    });
    await expect(api.pauseRun({ runId: 'no-such-run' })).rejects.toMatchObject({
      code: 'not_found',
    });
    mark(
      'debug:pause',
      'debug:step',
      'debug:resume',
      'debug:set-breakpoint',
      'debug:clear-breakpoint',
      'debug:set-approval',
      'debug:edit',
    );
  });
});
