/**
 * A PlanningFlow forked mid-plan (issue 14), on the real Docker engine with the scripted
 * model: the flow writes one file per plan step (two run-wide steps each); a fork at
 * step 3, inside plan step 1, starts with the plan as it was there (step 0 completed,
 * step 1 in progress, step 2 not started) and the step-3 files, gives its note to the
 * remaining steps, counts on from step 4 and finishes the plan; the original is untouched.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '@shared/events';
import type { ChatRequest } from '../llm/llm-client';
import { ScriptedLlm, type ScriptedReply } from '../llm/scripted-llm';
import { createRuntime, type Runtime } from '../runtime';
import { LOCAL_SANDBOX_IMAGE, probeDocker } from '../sandbox/testing/docker-env';
import { containersOf } from '../sandbox/testing/sandbox-fixture';

const docker = await probeDocker();
const NOTE = 'FORK-NOTE: check the files first.';

function script(request: ChatRequest): ScriptedReply {
  const text = request.messages.map((m) => m.content ?? '').join('\n');
  const current = /YOUR CURRENT TASK: step \d+: "(.*?)"/.exec(text)?.[1];
  if (!current) {
    if (/Summarise the outcome/.test(text)) return { content: 'All three files are written.' };
    return {
      toolCalls: [
        {
          name: 'planning',
          args: {
            command: 'create',
            plan_id: 'p',
            title: 'Files',
            steps: ['write a', 'write b', 'write c'],
          },
        },
      ],
    };
  }
  const done = request.messages.filter((m) => m.role === 'tool').length;
  if (done > 0) return { toolCalls: [{ name: 'terminate', args: { status: 'success' } }] };
  const name = current.slice(-1);
  const command = text.includes(NOTE)
    ? `test -f /workspace/a.txt && test -f /workspace/b.txt && test ! -e /workspace/c.txt && printf ${name} > /workspace/${name}.txt`
    : `printf ${name} > /workspace/${name}.txt`;
  return { toolCalls: [{ name: 'bash', args: { command } }] };
}

describe.skipIf(!docker.available)('fork a PlanningFlow mid-plan', () => {
  let runtime: Runtime | undefined;
  afterAll(async () => {
    await runtime?.dispose();
    if (runtime) expect(await containersOf(runtime.services.sandboxes)).toEqual([]);
  });

  it('restores the plan, the files and the step count, and finishes the plan', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-flowfork-'));
    writeFileSync(
      join(home, 'config.toml'),
      `[llm]\nmodel = "scripted"\napi_key = "sk-test-flowfork"\n\n[sandbox]\nimage = "${LOCAL_SANDBOX_IMAGE}"\n\n` +
        `[flow.planning]\nexecutors = ["manus"]\n`,
      { mode: 0o600 },
    );
    runtime = createRuntime({
      home,
      createLlm: (p) => new ScriptedLlm(script, { model: p.model }),
    });
    const events: RunEvent[] = [];
    runtime.runs.onEvent((e) => events.push(e));

    const original = runtime.runs.start({ task: 'write three files', flow: 'planning' });
    expect((await original.done).outcome).toBe('finished');
    const originalFiles = readdirSync(join(home, 'workspaces', runtime.sessionId)).sort();
    expect(originalFiles).toEqual(['a.txt', 'b.txt', 'c.txt']);
    const originalEvents = events.filter((e) => e.runId === original.runId);
    expect(originalEvents.filter((e) => e.type === 'step.finished').map((e) => e.step)).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);

    const fork = await runtime.runs.startFrom({
      kind: 'fork',
      runId: original.runId,
      step: 3,
      message: NOTE,
    });
    expect((await fork.done).outcome).toBe('finished');
    const forkEvents = events.filter((e) => e.runId === fork.runId);
    expect(forkEvents[0]).toMatchObject({
      type: 'run.started',
      flow: 'planning',
      forkOf: { runId: original.runId, step: 3 },
    });
    // The plan as it was at step 3, first thing in the fork.
    const firstPlan = forkEvents.find((e) => e.type === 'plan.updated');
    expect(firstPlan?.type === 'plan.updated' && firstPlan.steps.map((s) => s.status)).toEqual([
      'completed',
      'in_progress',
      'not_started',
    ]);
    // Step 1 runs again from the step-3 files (the check in its command passed), then step 2.
    const steps = forkEvents.filter((e) => e.type === 'step.started').map((e) => e.step);
    expect(steps[0]).toBe(4);
    const firstTool = forkEvents.find((e) => e.type === 'tool.finished');
    expect(firstTool).toMatchObject({ name: 'bash', exitCode: 0 });
    const lastPlan = forkEvents.filter((e) => e.type === 'plan.updated').at(-1);
    expect(lastPlan?.type === 'plan.updated' && lastPlan.steps.map((s) => s.status)).toEqual([
      'completed',
      'completed',
      'completed',
    ]);
    expect(readdirSync(join(home, 'workspaces', `fork-${fork.runId}`)).sort()).toEqual([
      'a.txt',
      'b.txt',
      'c.txt',
    ]);
    // The original's files are what they were.
    expect(readdirSync(join(home, 'workspaces', runtime.sessionId)).sort()).toEqual(originalFiles);
  }, 180_000);
});
