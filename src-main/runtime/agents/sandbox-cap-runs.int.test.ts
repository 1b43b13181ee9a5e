/**
 * `[sandbox] max_containers` as runs see it (issue 12 item 6): with a cap of 1, a run in
 * a second session waits for the sandbox (its events say `queued`, with its place), goes
 * on when the first run ends, and a waiting run stops at once when asked.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import { ScriptedLlm } from '../llm/scripted-llm';
import { createRuntime, type Runtime } from '../runtime';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../sandbox/testing/docker-env';
import { containersOf } from '../sandbox/testing/sandbox-fixture';

const docker = await probeDocker();

describe.skipIf(!docker.available)('runs beyond the sandbox cap', () => {
  let runtime: Runtime;
  afterAll(async () => {
    await runtime?.dispose();
    if (runtime) expect(await containersOf(runtime.services.sandboxes)).toEqual([]);
  });

  it('wait their turn, say so, and go on; a waiting run stops at once', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-cap-'));
    writeFileSync(
      join(home, 'config.toml'),
      `[llm]\nmodel = "scripted"\napi_key = "sk-test-cap"\n\n[sandbox]\nimage = "${LOCAL_SANDBOX_IMAGE}"\nmax_containers = 1\n`,
    );
    // Each run: one bash command, a pause (the run keeps its sandbox), then done.
    runtime = createRuntime({
      home,
      createLlm: () =>
        new ScriptedLlm((request) => {
          const done = request.messages.filter((m) => m.role === 'tool').length;
          if (done === 0) return { toolCalls: [{ name: 'bash', args: { command: 'echo in' } }] };
          if (done === 1)
            return {
              delayMs: 2_000,
              content: 'thinking',
              toolCalls: [{ name: 'bash', args: { command: 'echo again' } }],
            };
          return { toolCalls: [{ name: 'terminate', args: { status: 'success' } }] };
        }),
    });
    const events: RunEvent[] = [];
    runtime.runs.onEvent((e) => events.push(e));
    let most = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        most = Math.max(most, (await containersOf(runtime.services.sandboxes)).length);
        await new Promise((r) => setTimeout(r, 200));
      }
    })();

    const first = runtime.runs.start({ task: 'one', agent: 'swe', sessionId: 'cap-one' });
    await until(() => events.some((e) => e.runId === first.runId && e.type === 'tool.finished'));
    const second = runtime.runs.start({ task: 'two', agent: 'swe', sessionId: 'cap-two' });
    const third = runtime.runs.start({ task: 'three', agent: 'swe', sessionId: 'cap-three' });
    await until(() => queuedOf(events, third.runId).length > 0);
    expect(queuedOf(events, second.runId)[0]).toMatch(/1 of 1 in use .*next in line$/);
    expect(queuedOf(events, third.runId)[0]).toMatch(/1 of 1 in use .*1 ahead$/);

    const stoppedAt = performance.now();
    runtime.runs.stop(third.runId);
    expect((await third.done).outcome).toBe('cancelled');
    expect(performance.now() - stoppedAt).toBeLessThan(2_000);

    expect((await first.done).outcome).toBe('finished');
    expect((await second.done).outcome).toBe('finished');
    sampling = false;
    await sampler;
    expect(most).toBe(1);
    // The second run waited, then had a sandbox of its own.
    const secondSandbox = events
      .filter((e) => e.runId === second.runId && e.type === 'sandbox.changed')
      .map((e) => (e.type === 'sandbox.changed' ? e.status : ''));
    expect(secondSandbox.slice(0, 3)).toEqual(['queued', 'creating', 'ready']);
  }, 120_000);
});

function queuedOf(events: RunEvent[], runId: string): string[] {
  return events.flatMap((e) =>
    e.runId === runId && e.type === 'sandbox.changed' && e.status === 'queued'
      ? [e.progress ?? '']
      : [],
  );
}

async function until(probe: () => boolean, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!probe()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
