/**
 * `runs:continue` over the real WebSocket transport with the UI's own adapter (the rest of
 * the contract is in contract.test.ts): a finished run goes on in its session, recorded
 * as `continueOf`; a run whose session folder is gone, a run still going and an unknown
 * run are refused with typed errors.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect, finishedOf, serve, until } from './testing/ws-contract-fixture';

describe('contract over WebSocket: runs:continue', () => {
  it('runs:continue: a finished run goes on in its session; refusals are typed', async () => {
    const { api, home, runtime } = await serve();
    const events = collect(api);
    const { runId } = await api.startRun({ task: 'steps: 2', agent: 'toolcall' });
    await until(() => finishedOf(events, runId));
    // This fixture's factory never opens its session's folder: nothing to go on in.
    await expect(api.continueRun({ runId, message: 'And then?' })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/cannot be continued: the workspace it worked in .* is gone/),
    });
    mkdirSync(join(home, 'workspaces', runtime.sessionId), { recursive: true });
    const next = await api.continueRun({ runId, message: '  And then?  ' });
    await until(() => finishedOf(events, next.runId));
    expect(events.find((e) => e.runId === next.runId)).toMatchObject({
      type: 'run.started',
      continueOf: { runId, step: 2 },
      task: 'And then?',
      sessionId: runtime.sessionId,
    });
    expect((await api.listRuns({})).find((s) => s.runId === next.runId)?.continueOf).toEqual({
      runId,
      step: 2,
    });
    // A run still going cannot be continued.
    const slow = await api.startRun({ task: 'steps: 40 delay: 100', agent: 'toolcall' });
    await until(() => events.some((e) => e.runId === slow.runId && e.type === 'step.started'));
    await expect(api.continueRun({ runId: slow.runId, message: 'x' })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/still running/),
    });
    await api.stopRun({ runId: slow.runId });
    await until(() => finishedOf(events, slow.runId));
    await expect(api.continueRun({ runId: 'nope', message: 'x' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
