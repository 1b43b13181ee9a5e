/**
 * `checkpoint.limited` (issue 24) shows in the timeline as a warning row under the step
 * whose snapshot hit the limit, with the event's sentence.
 */
import { describe, expect, it } from 'vitest';
import { RunScript } from '../../testing/run-script';
import { applyTimelineEvents } from './apply-events';
import { createTimeline } from './model';

describe('applyTimelineEvents: checkpoint.limited', () => {
  it('is a warning row under its step', () => {
    const script = new RunScript('r').start('fill the disk');
    script.addStep({ content: 'writing', calls: [{ name: 'bash', args: { command: 'dd' } }] });
    script.endStep(50);
    const message = 'Checkpointing stopped at step 1: the disk holding the run history is full.';
    script.emit({
      type: 'checkpoint.limited',
      agent: script.agent,
      step: 1,
      action: 'stopped',
      reason: 'disk_full',
      bytes: 0,
      message,
    });
    script.finish();
    const model = applyTimelineEvents(createTimeline(), script.events);
    const row = model.items.find((i) => i.kind === 'marker' && i.text === message);
    expect(row).toMatchObject({ marker: 'sandbox', tone: 'warn', step: 1 });
  });
});
