/**
 * A typed command is under what an agent's command is under (issue 32), with real Docker:
 * `[sandbox] workspace_limit` (the watchdog stops a command that fills the bind-mounted
 * workspace, as it stops an agent's call; here the run does not end, only the command),
 * `[sandbox] timeout`, and the output cap.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../runtime';
import { probeDocker } from '../sandbox/testing/docker-env';
import { TERMINATE_TURN, terminalRuntime } from './testing/terminal-runtime';

const docker = await probeDocker();
const runtimes: Runtime[] = [];
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.dispose()));
});

describe.skipIf(!docker.available)("a typed command's limits", () => {
  it('is stopped past workspace_limit and at the timeout, and its output is capped', async () => {
    const runtime = terminalRuntime([TERMINATE_TURN], ['workspace_limit = "1m"', 'timeout = 4']);
    runtimes.push(runtime);
    const { runId, done } = runtime.runs.start({ task: 'nothing', agent: 'swe' });
    await expect(done).resolves.toMatchObject({ outcome: 'finished' });

    // fills the workspace past 1 MB, then would take 3 s more and say so
    const full = await runtime.terminal.runUserCommand(
      runId,
      'head -c 3000000 /dev/zero > big.bin; sleep 3; echo not-stopped',
    );
    expect(full.exitCode).toBeNull();
    expect(full.output).toContain('workspace_limit = "1m"');
    expect(full.output).toContain('the command was stopped');
    expect(full.output).not.toContain('the run ends');
    expect(full.output).not.toContain('not-stopped');
    expect(full.durationMs).toBeLessThan(3000);
    // the run is still the run it was; the next command sees the same limit
    await runtime.terminal.runUserCommand(runId, 'rm big.bin');

    const slow = await runtime.terminal.runUserCommand(runId, 'sleep 30; echo late');
    expect(slow, JSON.stringify(slow)).toMatchObject({ timedOut: true });
    expect(slow.durationMs).toBeLessThan(15_000);

    const loud = await runtime.terminal.runUserCommand(
      runId,
      "head -c 500000 /dev/zero | tr '\\0' a",
    );
    expect(loud.exitCode).toBe(0);
    expect(loud.output.length).toBeLessThan(100_000);
  }, 120_000);
});
