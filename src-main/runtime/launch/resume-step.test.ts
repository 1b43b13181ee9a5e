/**
 * A run killed while it waited before step 3's model call (paused there) resumes at
 * step 3, not 4: the step that never did anything runs again, and the resumed run
 * reports the steps it counted, not one more (issue 24 item 10). The real run factory
 * and run manager, the scripted model.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventStamper, type RunEvent, type RunEventPayload } from '@shared/events';
import { createRuntime, type Runtime } from '../runtime';
import { RunStore } from '../runs/run-store';

const runtimes: Runtime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((r) => r.dispose()));
});

const RUN = '20260101T000000-5e5e5e5e';

function killedWhilePausedBeforeStep3(home: string): void {
  const store = new RunStore(join(home, 'runs'), { onWarning: () => {} });
  const stamper = createEventStamper(RUN);
  const step = (n: number): RunEventPayload[] => [
    { type: 'step.started', agent: 'toolcall', step: n, maxSteps: 20 },
    {
      type: 'memory.appended',
      agent: 'toolcall',
      index: n,
      message: { role: 'assistant', content: `step ${n} done` },
    },
    { type: 'step.finished', agent: 'toolcall', step: n, durationMs: 1 },
  ];
  const payloads: RunEventPayload[] = [
    {
      type: 'run.started',
      agent: 'toolcall',
      task: 'count the steps',
      maxSteps: 20,
      model: 'm',
      sessionId: 's-resume',
    },
    {
      type: 'memory.appended',
      agent: 'toolcall',
      index: 0,
      message: { role: 'user', content: 'count the steps' },
    },
    ...step(1),
    ...step(2),
    { type: 'step.started', agent: 'toolcall', step: 3, maxSteps: 20 },
    {
      type: 'run.paused',
      agent: 'toolcall',
      step: 3,
      point: 'before_model',
      reasons: [{ kind: 'user' }],
    },
  ];
  for (const payload of payloads) {
    const event = stamper.stamp(payload);
    store.append(event, JSON.stringify(event));
  }
  store.close();
}

describe('resume after a kill at a pause', () => {
  it('runs the step that never started its work again, and counts what it ran', async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-resume-step-'));
    writeFileSync(join(home, 'config.toml'), '[llm]\nmodel = "m"\napi_type = "scripted"\n');
    killedWhilePausedBeforeStep3(home);
    const runtime = createRuntime({ home, env: {}, sweepAtStart: false });
    runtimes.push(runtime);
    expect(runtime.runs.get(RUN)?.isInterrupted).toBe(true);
    const events: RunEvent[] = [];
    runtime.runs.onEvent((e) => events.push(e));
    const resumed = await runtime.runs.startFrom({ kind: 'resume', runId: RUN });
    const result = await resumed.done;
    expect(events[0]).toMatchObject({ type: 'run.started', resumeOf: { runId: RUN, step: 2 } });
    const steps = events.flatMap((e) => (e.type === 'step.started' ? [e.step] : []));
    expect(steps[0]).toBe(3);
    // the counter goes on from the parent's two steps: as many as the two runs ran
    expect(result.steps).toBe(steps.at(-1));
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', steps: steps.at(-1) });
  });
});
