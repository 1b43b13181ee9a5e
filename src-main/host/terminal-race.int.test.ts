/**
 * The terminal and the agent never use the session's sandbox at once (issue 32), with real
 * Docker and the scripted model, through the UI's own handlers: while a typed command
 * runs, resuming, stepping or editing the paused run and continuing the finished run are
 * refused with why (`conflict`), asked in the same tick as the command was typed (the
 * hold is taken before anything is awaited), and so is a new run in that session; once it
 * returns they are taken; once the
 * agent runs again a typed command is refused.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import type { Runtime } from '../runtime/runtime';
import { RunStartRefused } from '../runtime/runs/run-start-refused';
import { probeDocker } from '../runtime/sandbox/testing/docker-env';
import {
  bashTurn,
  TERMINATE_TURN,
  terminalRuntime,
  waitFor,
} from '../runtime/terminal/testing/terminal-runtime';
import { createDebugHandlers } from './debug-handlers';
import { createTimeTravelHandlers } from './timetravel-handlers';

const docker = await probeDocker();
const runtimes: Runtime[] = [];
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.dispose()));
});

const STILL_RUNNING = 'A command typed in the terminal is still running';

describe.skipIf(!docker.available)('the terminal and the agent', () => {
  it('refuses a resume, a step, an edit and a continue while a typed command runs, and a command once the agent runs', async () => {
    const runtime = terminalRuntime([
      bashTurn('echo first'),
      bashTurn('echo second'),
      TERMINATE_TURN,
      TERMINATE_TURN,
    ]);
    runtimes.push(runtime);
    const debug = createDebugHandlers(runtime);
    const timeTravel = createTimeTravelHandlers(runtime);
    const events: RunEvent[] = [];
    runtime.runs.onEvent((e) => events.push(e));
    const { runId, done } = runtime.runs.start({
      task: 'two commands',
      agent: 'swe',
      breakpoints: ['tool:bash:second'],
    });
    await waitFor(() => events.some((e) => e.type === 'run.paused'));

    // typed while paused; in the same tick the user presses Resume, Step, and edits
    const typed = runtime.terminal.runUserCommand(runId, 'sleep 2; echo typed-done');
    await expect(debug['debug:resume']({ runId })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining(STILL_RUNNING) as string,
    });
    await expect(debug['debug:step']({ runId, scope: 'cycle' })).rejects.toMatchObject({
      code: 'conflict',
    });
    await expect(
      debug['debug:edit']({
        runId,
        edit: { kind: 'skip_call', toolCallId: 'any', observation: 'skipped' },
      }),
    ).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining(STILL_RUNNING) });
    // a second command in the same session waits for nothing either: refused
    await expect(runtime.terminal.runUserCommand(runId, 'echo two')).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(runtime.runs.debugger(runId)?.status.state).toBe('paused');
    await expect(typed).resolves.toMatchObject({ exitCode: 0, output: 'typed-done\n' });
    expect(events.some((e) => e.type === 'run.resumed')).toBe(false);

    // returned: the resume is taken, and from then a typed command is refused
    await debug['debug:resume']({ runId });
    await expect(runtime.terminal.runUserCommand(runId, 'echo late')).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('The agent is running') as string,
    });
    await expect(done).resolves.toMatchObject({ outcome: 'finished' });

    // finished: a typed command holds the session against a continuation too
    const after = runtime.terminal.runUserCommand(runId, 'sleep 1; echo after');
    await expect(timeTravel['runs:continue']({ runId, message: 'go on' })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining(STILL_RUNNING),
    });
    // and against a new run in the same session (from New Run, a rerun, a batch of it)
    const runsBefore = runtime.runs.list().length;
    expect(() => runtime.runs.start({ task: 'another', agent: 'swe' })).toThrow(RunStartRefused);
    expect(() => runtime.runs.start({ task: 'another', agent: 'swe' })).toThrow(STILL_RUNNING);
    expect(runtime.runs.list()).toHaveLength(runsBefore);
    await expect(after).resolves.toMatchObject({ exitCode: 0, runState: 'finished' });
    const { runId: continued } = await timeTravel['runs:continue']({ runId, message: 'go on' });
    expect(continued).not.toBe(runId);
    expect(runtime.terminal.commands(runId).map((c) => c.command)).toEqual([
      'sleep 2; echo typed-done',
      'sleep 1; echo after',
    ]);
  }, 180_000);
});
