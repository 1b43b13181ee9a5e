/**
 * The run's terminal with real Docker and the real runtime (`api_type = "scripted"`,
 * issue 32 item 4): a command typed while the run is paused at a breakpoint runs in the
 * session's container (its hostname, a file it writes outside the workspace is not on
 * this computer); typed while the agent runs it is refused; typed after the run finished
 * it runs again in the session's container; every one is in the run's user-actions log,
 * and the run's history still ends with `run.finished`, untouched.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import { createRuntime, type Runtime } from '../runtime';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../sandbox/testing/docker-env';
import { TerminalError } from './run-terminal';

const exec = promisify(execFile);
const docker = await probeDocker();
const runtimes: Runtime[] = [];
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.dispose()));
});

async function containerHostname(containerId: string): Promise<string> {
  const { stdout } = await exec('docker', ['inspect', '-f', '{{.Config.Hostname}}', containerId]);
  return stdout.trim();
}

describe.skipIf(!docker.available)("a run's terminal", () => {
  it('runs what is typed while paused or finished in the session container, refuses it while the agent runs, and records it', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-terminal-'));
    const bash = (command: string) => ({
      content: `Running ${command}`,
      toolCalls: [{ name: 'bash', arguments: { command } }],
    });
    writeFileSync(
      join(home, 'scenario.json'),
      JSON.stringify({
        scenarios: [
          {
            name: 's',
            turns: [
              bash('echo first > agent.txt'),
              bash('echo second'),
              {
                content: 'done',
                toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }],
              },
            ],
          },
        ],
      }),
    );
    writeFileSync(
      join(home, 'config.toml'),
      [
        '[llm]',
        'api_type = "scripted"',
        'scenario = "scenario.json"',
        '[sandbox]',
        `image = "${LOCAL_SANDBOX_IMAGE}"`,
      ].join('\n'),
    );
    const runtime = createRuntime({ home, env: {} });
    runtimes.push(runtime);
    const events: RunEvent[] = [];
    runtime.runs.onEvent((e) => events.push(e));
    const { runId, done } = runtime.runs.start({
      task: 'two commands',
      agent: 'swe',
      breakpoints: ['tool:bash:second'],
    });

    // Running (not yet at the breakpoint): refused, nothing recorded.
    await expect(runtime.terminal.runUserCommand(runId, 'echo too-early')).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('The agent is running') as string,
    });

    const deadline = Date.now() + 60_000;
    while (!events.some((e) => e.type === 'run.paused') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(events.some((e) => e.type === 'run.paused')).toBe(true);
    const ready = events.find((e) => e.type === 'sandbox.changed' && e.containerId);
    const containerId = ready?.type === 'sandbox.changed' ? ready.containerId! : '';
    expect(containerId).not.toBe('');

    // Paused: runs in the session's container, as the agent left it.
    const marker = `/tmp/wb-terminal-${randomUUID()}`;
    const paused = await runtime.terminal.runUserCommand(
      runId,
      `hostname; cat agent.txt; echo typed > ${marker}; ls ${marker}`,
    );
    expect(paused).toMatchObject({
      type: 'user.command',
      runId,
      seq: 1,
      exitCode: 0,
      runState: 'paused',
      containerId,
      timedOut: false,
    });
    const [typedHostname, agentFile, listed] = paused.output.trim().split('\n');
    expect(typedHostname).toBe(await containerHostname(containerId));
    expect(typedHostname).not.toBe(hostname());
    expect(agentFile).toBe('first');
    expect(listed).toBe(marker);
    // nothing typed ran here: the file is in the container only
    expect(existsSync(marker)).toBe(false);
    const { stdout: inContainer } = await exec('docker', ['exec', containerId, 'cat', marker]);
    expect(inContainer.trim()).toBe('typed');
    const failing = await runtime.terminal.runUserCommand(runId, 'exit 3');
    expect(failing).toMatchObject({ seq: 2, exitCode: 3 });

    // Resumed: the agent runs again, so the terminal is read-only.
    runtime.runs.debugger(runId)!.resume('continue', 'ui');
    await expect(runtime.terminal.runUserCommand(runId, 'echo racing')).rejects.toBeInstanceOf(
      TerminalError,
    );
    await expect(done).resolves.toMatchObject({ outcome: 'finished' });

    // Finished: the terminal is interactive again, in the same container.
    const after = await runtime.terminal.runUserCommand(runId, `cat ${marker}`);
    expect(after).toMatchObject({ seq: 3, exitCode: 0, runState: 'finished', containerId });
    expect(after.output.trim()).toBe('typed');

    // Recorded as user actions; the history itself is untouched and ends at run.finished.
    expect(runtime.terminal.commands(runId).map((c) => [c.command, c.runState])).toEqual([
      [`hostname; cat agent.txt; echo typed > ${marker}; ls ${marker}`, 'paused'],
      ['exit 3', 'paused'],
      [`cat ${marker}`, 'finished'],
    ]);
    const history = runtime.runs.snapshot(runId)!.events;
    expect(history.at(-1)?.type).toBe('run.finished');
    expect(history.some((e) => (e.type as string) === 'user.command')).toBe(false);
    expect(runtime.runs.get(runId)?.steps).toBe(3);
  }, 180_000);
});
