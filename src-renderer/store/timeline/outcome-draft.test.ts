import { describe, expect, it } from 'vitest';
import { RunScript } from '../../testing/run-script';
import { applyTimelineEvents } from './apply-events';
import { createTimeline } from './model';
import type { MarkerItem, TimelineItem, ToolItem } from './types';

const DOCKER_DOWN =
  'Docker is unavailable, so the sandbox tools cannot run. No Docker engine socket at unix:///var/run/docker.sock: Docker is not installed or not running. Install Docker (or Docker Desktop) and start it; on Debian/Ubuntu `sudo ./scripts/setup-system.sh` does both. Set DOCKER_HOST to use another engine.';

/** A python_execute call that fails because the sandbox cannot start (as the runtime emits it). */
function failingSandboxCall(script: RunScript, n: number) {
  const step = script.currentStep + 1;
  script.emit({ type: 'step.started', agent: 'manus', step, maxSteps: 20 });
  script.emit({
    type: 'tool.started',
    agent: 'manus',
    step,
    toolCallId: `c${n}`,
    name: 'python_execute',
    args: { code: 'print(1)' },
  });
  const sandbox = { type: 'sandbox.changed', image: 'python:3.12-slim' } as const;
  script.emit({ ...sandbox, status: 'creating' });
  script.emit({ ...sandbox, status: 'creating' });
  script.emit({ ...sandbox, status: 'failed', error: DOCKER_DOWN, reason: 'engine_unavailable' });
  script.emit({
    type: 'tool.finished',
    agent: 'manus',
    step,
    toolCallId: `c${n}`,
    name: 'python_execute',
    ok: false,
    output: '',
    error: DOCKER_DOWN,
    durationMs: 5,
  });
  script.emit({ type: 'step.finished', agent: 'manus', step, durationMs: 5 });
  // (RunScript counts steps itself only through addStep)
  (script as unknown as { step: number }).step = step;
}

const markers = (items: TimelineItem[], marker: MarkerItem['marker']) =>
  items.filter((i): i is MarkerItem => i.kind === 'marker' && i.marker === marker);
const tools = (items: TimelineItem[]) => items.filter((i): i is ToolItem => i.kind === 'tool');

/** A python_execute call in step `step`, with `during` emitted between its start and finish. */
function sandboxCall(script: RunScript, step: number, id: string, during: () => void) {
  script.emit({
    type: 'tool.started',
    agent: 'manus',
    step,
    toolCallId: id,
    name: 'python_execute',
    args: { code: 'print(1)' },
  });
  during();
  script.emit({
    type: 'tool.finished',
    agent: 'manus',
    step,
    toolCallId: id,
    name: 'python_execute',
    ok: true,
    output: '1\n',
    durationMs: 400,
  });
}

const image = 'agent-workbench/sandbox:local';
const sandboxEvent = (status: 'queued' | 'creating' | 'ready' | 'busy' | 'idle') =>
  ({
    type: 'sandbox.changed',
    image,
    status,
    ...(status === 'ready' || status === 'busy' || status === 'idle'
      ? { containerId: 'cabc16c3a43a2ded08d7' }
      : {}),
  }) as const;

describe('the sandbox a call waited for (issue 25: its rows came after the call’s result)', () => {
  it('is shown in the card of the call that needed it, above its result, not as rows after it', () => {
    // the order the runtime emits for Manus's first sandbox call (no pre-warm)
    const script = new RunScript('r').start('compute');
    script.emit({ type: 'step.started', agent: 'manus', step: 1, maxSteps: 20 });
    sandboxCall(script, 1, 'c1', () => {
      for (const status of ['creating', 'ready', 'busy', 'idle'] as const) {
        script.emit(sandboxEvent(status));
      }
    });
    script.emit({ type: 'step.finished', agent: 'manus', step: 1, durationMs: 500 });
    // a later call finds it ready: nothing more to say
    script.emit({ type: 'step.started', agent: 'manus', step: 2, maxSteps: 20 });
    sandboxCall(script, 2, 'c2', () => {
      script.emit(sandboxEvent('busy'));
      script.emit(sandboxEvent('idle'));
    });
    const model = applyTimelineEvents(createTimeline(), script.events);

    expect(markers(model.items, 'sandbox')).toEqual([]);
    const [first, second] = tools(model.items);
    expect(first!.sandbox).toEqual({
      status: 'ready',
      text: `Sandbox ready (${image}, cabc16c3a43a)`,
    });
    expect(second!.sandbox).toBeUndefined();
    // what came after the first card is the next step, not a sandbox row
    const after = model.items[model.items.indexOf(first!) + 1]!;
    expect(after.kind).toBe('step');
  });

  it('shows a sandbox started while the model thought as a row before the call, and its ready in the card', () => {
    // swe pre-warms: `creating` comes during the model call, `ready` during the first call
    const script = new RunScript('r').start('fix it');
    script.emit({ type: 'step.started', agent: 'manus', step: 1, maxSteps: 20 });
    script.emit(sandboxEvent('creating'));
    sandboxCall(script, 1, 'c1', () => {
      script.emit(sandboxEvent('ready'));
      script.emit(sandboxEvent('busy'));
    });
    const model = applyTimelineEvents(createTimeline(), script.events);
    const rows = markers(model.items, 'sandbox');
    expect(rows.map((r) => r.text)).toEqual([`Sandbox creating (${image})`]);
    const tool = tools(model.items)[0]!;
    expect(model.items.indexOf(rows[0]!)).toBeLessThan(model.items.indexOf(tool));
    expect(tool.sandbox?.status).toBe('ready');
  });

  it('updates the card while the call waits in the queue and the image is pulled', () => {
    const script = new RunScript('r').start('compute');
    script.emit({ type: 'step.started', agent: 'manus', step: 1, maxSteps: 20 });
    const seen: (string | undefined)[] = [];
    let model = applyTimelineEvents(createTimeline(), script.events);
    sandboxCall(script, 1, 'c1', () => {
      for (const event of [
        { ...sandboxEvent('queued'), progress: '2nd in line' },
        { ...sandboxEvent('creating'), progress: 'pulling 40 %' },
      ]) {
        script.emit(event);
        model = applyTimelineEvents(model, script.events);
        seen.push(tools(model.items)[0]!.sandbox?.text);
      }
    });
    expect(seen).toEqual([
      `Sandbox queued (${image}): 2nd in line`,
      `Sandbox creating (${image}): pulling 40 %`,
    ]);
    expect(markers(model.items, 'sandbox')).toEqual([]);
  });
});

describe('the timeline never contradicts the outcome', () => {
  it('shows a sandbox that cannot start once, ×N, linked to every call it failed', () => {
    const script = new RunScript('r').start('compute');
    for (let n = 1; n <= 3; n++) failingSandboxCall(script, n);
    script.finish();
    const model = applyTimelineEvents(createTimeline(), script.events);

    const sandboxRows = markers(model.items, 'sandbox');
    expect(sandboxRows).toHaveLength(1);
    expect(sandboxRows[0]!.text).toContain('×3');
    expect(sandboxRows[0]!.text.length).toBeLessThan(DOCKER_DOWN.length);
    const calls = tools(model.items);
    expect(sandboxRows[0]!.occurrences).toEqual(calls.map((c) => c.id));
    expect(calls.every((c) => c.isSandboxFailure)).toBe(true);
    expect(calls.slice(1).map((c) => c.repeatOf)).toEqual([calls[0]!.id, calls[0]!.id]);
    expect(model.sandboxFailure).toMatchObject({
      error: DOCKER_DOWN,
      reason: 'engine_unavailable',
      isResolved: false,
    });
    // a run whose calls all failed is not a plain "finished"
    const finished = model.items.at(-1)!;
    expect(finished.kind === 'finished' && finished.verdict.label).toBe(
      'finished with 3 tool errors',
    );
  });

  it('folds the calls a run answered without asking the engine again, whose errors go on after the cause', () => {
    // the runtime now tries once per run: one failed sandbox.changed, then every call's
    // error is the cause and what the run does about it (tools/sandbox/sandbox-outage.ts)
    const script = new RunScript('r').start('compute');
    script.emit({ type: 'sandbox.changed', image: 'python:3.12-slim', status: 'creating' });
    script.emit({
      type: 'sandbox.changed',
      image: 'python:3.12-slim',
      status: 'failed',
      error: DOCKER_DOWN,
      reason: 'engine_unavailable',
    });
    const told = `${DOCKER_DOWN} The sandbox tools (bash) cannot be used in this run.`;
    const ended = `${DOCKER_DOWN} The run ends here: \`bash\` was called after the model was told.`;
    for (const error of [told, ended]) {
      script.addStep({ calls: [{ name: 'bash', args: { command: 'ls' }, error }] });
      script.endStep();
    }
    script.finish('error', ended);
    const model = applyTimelineEvents(createTimeline(), script.events);

    const calls = tools(model.items);
    expect(calls.map((c) => c.isSandboxFailure)).toEqual([true, true]);
    const sandboxRows = markers(model.items, 'sandbox');
    expect(sandboxRows).toHaveLength(1);
    expect(sandboxRows[0]!.text).toContain('×2');
    expect(model.sandboxFailure).toMatchObject({ error: DOCKER_DOWN, isResolved: false });
    const finished = model.items.at(-1)!;
    expect(finished.kind === 'finished' && finished.verdict.label).toBe('error');
    // the last row says why the run ended and leaves the cause to the banner
    expect(finished.kind === 'finished' && finished.sandboxCause).toBe(DOCKER_DOWN);
  });

  it('marks a command that exited non-zero as an error, never ok', () => {
    const script = new RunScript('r').start('test');
    script.addStep({ calls: [{ name: 'bash', args: { command: 'false' }, exitCode: 1 }] });
    script.endStep();
    const model = applyTimelineEvents(createTimeline(), script.events);
    expect(tools(model.items)[0]).toMatchObject({ status: 'error', exitCode: 1 });
    expect(model.items.find((i) => i.kind === 'step')).toMatchObject({ hasError: true });
  });

  it('shows a call the user skipped as skipped, not as a failure of the step or the run', () => {
    const script = new RunScript('r').start('test');
    script.addStep({
      calls: [{ name: 'bash', error: 'Skipped by the user; the model is told: no', skipped: true }],
    });
    script.endStep();
    const model = applyTimelineEvents(createTimeline(), script.events);
    expect(tools(model.items)[0]).toMatchObject({ status: 'skipped' });
    expect(model.items.find((i) => i.kind === 'step')).toMatchObject({ hasError: false });
  });

  it('links a repeated tool error to its first occurrence', () => {
    const script = new RunScript('r').start('t');
    for (let i = 0; i < 3; i++) {
      script.addStep({ calls: [{ name: 'bash', args: { command: 'x' }, error: 'boom' }] });
      script.endStep();
    }
    const calls = tools(applyTimelineEvents(createTimeline(), script.events).items);
    expect(calls[0]!.repeats).toEqual([calls[1]!.id, calls[2]!.id]);
    expect(calls[2]!.repeatOf).toBe(calls[0]!.id);
  });

  it("names the outcome on a stopped run's terminal state marker", () => {
    const script = new RunScript('r').start('t');
    script.finish('cancelled');
    const state = markers(applyTimelineEvents(createTimeline(), script.events).items, 'state');
    expect(state.at(-1)!.text).toBe('RUNNING → FINISHED (outcome: cancelled)');
    expect(state.at(-1)!.tone).toBe('warn');
  });

  it("labels a flow's executors as such, apart from the run's own state", () => {
    const script = new RunScript('r', 'planning').start('plan it', 'planning');
    script.emit({ type: 'state.changed', agent: 'manus', from: 'IDLE', to: 'RUNNING' });
    const state = markers(applyTimelineEvents(createTimeline(), script.events).items, 'state');
    expect(state.map((m) => m.text)).toEqual([
      'IDLE → RUNNING',
      'manus (plan step executor): IDLE → RUNNING',
    ]);
  });
});
