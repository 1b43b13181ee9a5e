/**
 * A paused run holds its sandbox (its shell stays open in the session's container) and
 * costs nothing; stopped, it ends at once and lets go of the sandbox. Real Docker, the
 * real runtime, `api_type = "scripted"`: the run pauses at a breakpoint after a first
 * bash call opened the agent's shell; a stop must end the run and close that shell
 * within a second, and the CLI's path (runtime.dispose) then removes the container.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import { createRuntime, type Runtime } from '../runtime';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../sandbox/testing/docker-env';

const exec = promisify(execFile);
const docker = await probeDocker();
const runtimes: Runtime[] = [];
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.dispose()));
});

/** The persistent shells (`bash --noprofile --norc`) running in a container. */
async function shellsIn(containerId: string): Promise<number> {
  const { stdout } = await exec('docker', ['top', containerId, '-o', 'pid,args']);
  return stdout.split('\n').filter((line) => line.includes('bash --noprofile --norc')).length;
}

async function containerExists(containerId: string): Promise<boolean> {
  const { stdout } = await exec('docker', [
    'ps',
    '-aq',
    '--no-trunc',
    '--filter',
    `id=${containerId}`,
  ]);
  return stdout.trim() !== '';
}

describe.skipIf(!docker.available)('a paused run that is stopped', () => {
  it('ends within a second and releases its sandbox shell; the CLI path removes the container', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-paused-stop-'));
    const bash = (command: string) => ({
      content: `Running ${command}`,
      toolCalls: [{ name: 'bash', arguments: { command } }],
    });
    writeFileSync(
      join(home, 'scenario.json'),
      JSON.stringify({
        scenarios: [{ name: 's', turns: [bash('echo first'), bash('echo second')] }],
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
    const deadline = Date.now() + 60_000;
    while (!events.some((e) => e.type === 'run.paused') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(events.find((e) => e.type === 'run.paused')).toMatchObject({
      point: 'before_tools',
      reasons: [{ condition: 'tool:bash:second' }],
    });
    const ready = events.find((e) => e.type === 'sandbox.changed' && e.containerId);
    const containerId = ready?.type === 'sandbox.changed' ? ready.containerId! : '';
    // Paused: the shell of the first call is still open, and nothing is asked of the model.
    expect(await shellsIn(containerId)).toBe(1);
    const requested = events.filter((e) => e.type === 'llm.requested').length;
    await new Promise((r) => setTimeout(r, 300));
    expect(events.filter((e) => e.type === 'llm.requested')).toHaveLength(requested);

    const stopped = performance.now();
    expect(runtime.runs.stop(runId)).toBe(true);
    await expect(done).resolves.toMatchObject({ outcome: 'cancelled' });
    const ended = performance.now() - stopped;
    const shells = await shellsIn(containerId);
    const released = performance.now() - stopped;
    console.log(
      `[paused stop] run ended in ${ended.toFixed(0)} ms, shell released by ${released.toFixed(0)} ms`,
    );
    expect(ended).toBeLessThan(1_000);
    expect(shells).toBe(0);
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'cancelled' });

    // The CLI disposes the runtime on exit: the session's container goes too.
    const disposing = performance.now();
    await runtime.dispose();
    runtimes.pop();
    console.log(
      `[paused stop] container removed in ${(performance.now() - disposing).toFixed(0)} ms`,
    );
    expect(await containerExists(containerId)).toBe(false);
  }, 120_000);
});
