import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventPayload } from '@shared/events';
import { RunScript } from '../../testing/run-script';
import { applyTimelineEvents } from './apply-events';
import { createTimeline } from './model';
import { minimapMarks, stepTimings, waterfallBars } from './overview';

function run() {
  const s = new RunScript('r').start('t');
  s.addStep({ content: 'same', calls: [{ name: 'bash', args: { c: 1 }, durationMs: 40 }] });
  s.endStep(500);
  s.addStep({ content: 'other', calls: [{ name: 'bash', args: { c: 2 }, error: 'boom' }] });
  s.endStep(100);
  s.addStep({ content: 'same', calls: [{ name: 'bash', args: { c: 1 } }] });
  s.stuck('content', [1]);
  s.endStep(50);
  s.finish();
  return applyTimelineEvents(createTimeline(), s.events);
}

describe('overview', () => {
  it('marks errors, stuck detections and duplicates where their rows are', () => {
    const { items } = run();
    const marks = minimapMarks(items.length, (r) => items[r], 1000);
    const kinds = marks.map((m) => m.kind).sort();
    expect(kinds).toEqual(['duplicate', 'error', 'stuck']);
    const error = marks.find((m) => m.kind === 'error')!;
    const row = items.findIndex((i) => i.id === error.itemId);
    expect(items[row]).toMatchObject({ kind: 'tool', status: 'error' });
    expect(error.bucket).toBe(Math.floor((row / items.length) * 1000));
    // few buckets: marks of a kind merge and count
    const merged = minimapMarks(items.length, (r) => items[r], 1);
    expect(merged.map((m) => m.count).reduce((a, b) => a + b)).toBe(3);
  });

  it('splits each step into model, tool and other time, and merges steps into bars', () => {
    const timings = stepTimings(run().items);
    expect(timings.map((t) => t.step)).toEqual([1, 2, 3]);
    expect(timings[0]!.toolMs).toBe(40);
    expect(timings[0]!.modelMs + timings[0]!.toolMs + timings[0]!.loopMs).toBe(500);
    expect(timings[0]!.waitMs).toBe(0);
    expect(timings[1]!.hasError).toBe(true);
    const bars = waterfallBars(timings, 2);
    expect(bars.map((b) => [b.firstStep, b.lastStep])).toEqual([
      [1, 2],
      [3, 3],
    ]);
    expect(bars[0]!.hasError).toBe(true);
    expect(bars[0]!.stepId).toBe(timings[0]!.stepId);
  });

  describe('waits', () => {
    const agent = 'manus';
    /** A step by hand: `body` emits between step.started and step.finished. */
    function stepOf(s: RunScript, step: number, durationMs: number, body: () => void): void {
      s.emit({ type: 'step.started', agent, step, maxSteps: 9 });
      body();
      s.emit({ type: 'step.finished', agent, step, durationMs });
    }
    const requested = (step: number): RunEventPayload => ({
      type: 'llm.requested',
      agent,
      step,
      model: 'm',
      messageCount: 1,
      inputTokens: 1,
    });
    const responded = (step: number, durationMs: number, queuedMs?: number): RunEventPayload => ({
      type: 'llm.responded',
      agent,
      step,
      model: 'm',
      content: 'ok',
      toolCalls: [],
      usage: { prompt: 1, completion: 1 },
      durationMs,
      finishReason: 'stop',
      ...(queuedMs !== undefined ? { queuedMs } : {}),
    });
    const retried = (step: number, delayMs: number): RunEventPayload => ({
      type: 'llm.retried',
      agent,
      step,
      attempt: 1,
      status: 429,
      delayMs,
      error: 'Rate limit reached',
    });
    const queued = (step: number): RunEventPayload => ({
      type: 'llm.queued',
      agent,
      step,
      model: 'm',
      reason: 'max_concurrency',
      ahead: 1,
      capacity: 1,
    });
    const tool = (
      s: RunScript,
      step: number,
      id: string,
      durationMs: number,
      during = () => {},
    ) => {
      s.emit({ type: 'tool.started', agent, step, toolCallId: id, name: 'bash', args: {} });
      during();
      s.emit({
        type: 'tool.finished',
        agent,
        step,
        toolCallId: id,
        name: 'bash',
        ok: true,
        output: '',
        durationMs,
      });
    };
    const timingsOf = (events: readonly RunEvent[]) =>
      stepTimings(applyTimelineEvents(createTimeline(), events).items);

    it('takes the queue and the backoff out of the model call that holds them', () => {
      const s = new RunScript('r').start('t');
      stepOf(s, 1, 5_000, () => {
        s.emit(requested(1));
        s.emit(queued(1));
        s.emit(retried(1, 1_200));
        // 4 s from the request to the answer: 2 s queued, 1.2 s backoff, 0.8 s the model
        s.emit(responded(1, 4_000, 2_000));
        tool(s, 1, 'c1', 40);
      });
      const [t] = timingsOf(s.events);
      expect(t).toMatchObject({
        modelMs: 800,
        toolMs: 40,
        waitMs: 3_200,
        queuedMs: 2_000,
        backoffMs: 1_200,
        pausedMs: 0,
        sandboxMs: 0,
        loopMs: 960,
        retries: 1,
      });
    });

    it('counts a pause in the debugger between the calls', () => {
      const s = new RunScript('r').start('t');
      stepOf(s, 1, 3_500, () => {
        s.emit(requested(1));
        s.emit(responded(1, 100));
        s.emit({ type: 'run.paused', agent, step: 1, point: 'before_tools', reasons: [] });
        s.emit({
          type: 'run.resumed',
          agent,
          step: 1,
          mode: 'continue',
          by: 'ui',
          pausedMs: 3_000,
        });
      });
      expect(timingsOf(s.events)[0]).toMatchObject({
        modelMs: 100,
        waitMs: 3_000,
        pausedMs: 3_000,
        loopMs: 400,
      });
    });

    it('counts the sandbox queue inside the tool call that waited for it', () => {
      const s = new RunScript('r').start('t');
      stepOf(s, 1, 2_000, () => {
        s.emit(requested(1));
        s.emit(responded(1, 100));
        tool(s, 1, 'c1', 1_700, () => {
          const first = s.emit({
            type: 'sandbox.changed',
            status: 'queued',
            image: 'i',
            progress: '2nd',
          });
          s.emit({ type: 'sandbox.changed', status: 'queued', image: 'i', progress: '1st' });
          const creating = s.emit({ type: 'sandbox.changed', status: 'creating', image: 'i' });
          // the slot came 1.5 s after the first queued event
          (creating as { ts: number }).ts = first.ts + 1_500;
        });
      });
      expect(timingsOf(s.events)[0]).toMatchObject({
        modelMs: 100,
        toolMs: 200,
        waitMs: 1_500,
        sandboxMs: 1_500,
        loopMs: 200,
      });
    });

    it("a call that never answers leaves its backoff in the step, not in the model's time", () => {
      const s = new RunScript('r').start('t');
      stepOf(s, 1, 2_000, () => {
        s.emit(requested(1));
        s.emit(retried(1, 1_500));
      });
      expect(timingsOf(s.events)[0]).toMatchObject({
        modelMs: 0,
        backoffMs: 1_500,
        waitMs: 1_500,
        loopMs: 500,
      });
    });

    it("a tool's own model call (extract_content) and its waits are the tool's time", () => {
      const s = new RunScript('r').start('t');
      stepOf(s, 1, 2_000, () => {
        s.emit(requested(1));
        s.emit(responded(1, 100));
        tool(s, 1, 'c1', 1_500, () => {
          s.emit(requested(1));
          s.emit(queued(1));
          s.emit(retried(1, 300));
          s.emit(responded(1, 900, 200));
        });
      });
      expect(timingsOf(s.events)[0]).toMatchObject({
        modelMs: 100,
        toolMs: 1_000,
        queuedMs: 200,
        backoffMs: 300,
        waitMs: 500,
        loopMs: 400,
      });
    });

    it("an older run (no queuedMs) shows no queue wait; a wait after the step is nobody's", () => {
      const s = new RunScript('r').start('t');
      stepOf(s, 1, 1_000, () => {
        s.emit(requested(1));
        s.emit(queued(1));
        s.emit(responded(1, 700));
      });
      // a checkpoint's sandbox after step.finished
      const q = s.emit({ type: 'sandbox.changed', status: 'queued', image: 'i' });
      const ready = s.emit({ type: 'sandbox.changed', status: 'ready', image: 'i' });
      (ready as { ts: number }).ts = q.ts + 5_000;
      expect(timingsOf(s.events)[0]).toMatchObject({ modelMs: 700, waitMs: 0, loopMs: 300 });
    });

    it('merged bars add up each kind of wait; events in several batches give the same', () => {
      const s = new RunScript('r').start('t');
      stepOf(s, 1, 5_000, () => {
        s.emit(requested(1));
        s.emit(retried(1, 1_000));
        s.emit(responded(1, 3_000, 500));
      });
      stepOf(s, 2, 4_000, () => {
        s.emit(requested(2));
        s.emit({ type: 'run.paused', agent, step: 2, point: 'before_model', reasons: [] });
        s.emit({
          type: 'run.resumed',
          agent,
          step: 2,
          mode: 'continue',
          by: 'ui',
          pausedMs: 2_000,
        });
        s.emit(responded(2, 1_000));
      });
      const [bar] = waterfallBars(timingsOf(s.events), 1);
      expect(bar).toMatchObject({
        firstStep: 1,
        lastStep: 2,
        queuedMs: 500,
        backoffMs: 1_000,
        pausedMs: 2_000,
        waitMs: 3_500,
        modelMs: 1_500 + 1_000,
      });
      expect(bar!.modelMs + bar!.toolMs + bar!.waitMs + bar!.loopMs).toBe(9_000);
      // one event per batch: the draft's copies carry the state between batches
      let model = createTimeline();
      for (const e of s.events) model = applyTimelineEvents(model, [e]);
      expect(stepTimings(model.items)).toEqual(timingsOf(s.events));
    });
  });
});
