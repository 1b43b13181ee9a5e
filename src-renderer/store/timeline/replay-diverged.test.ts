/**
 * `replay.diverged` (a gateway replay whose agent sent another request than the recording,
 * docs/gateway.md) is a row under its step saying what differed and what happened next.
 */
import { describe, expect, it } from 'vitest';
import { RunScript } from '../../testing/run-script';
import { applyTimelineEvents } from './apply-events';
import { createTimeline } from './model';

describe('applyTimelineEvents: replay.diverged', () => {
  it('is a row under its step: a warning when the call went live, an error when it failed', () => {
    const script = new RunScript('r').start('replay the crew');
    script.addStep({ content: 'first answer' });
    script.endStep(5);
    const diverged = (then: 'live' | 'fail') =>
      script.emit({
        type: 'replay.diverged',
        agent: script.agent,
        step: 1,
        replayOf: 'run-old',
        expected: 'user: "add 2 and 2"',
        received: 'user: "add 2 and 3"',
        then,
      });
    diverged('live');
    diverged('fail');
    script.finish();
    const rows = applyTimelineEvents(createTimeline(), script.events).items.filter(
      (i) => i.kind === 'marker' && i.marker === 'replay',
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ tone: 'warn', step: 1 });
    expect(rows[0]).toHaveProperty(
      'text',
      'Replay of run-old diverged at step 1: the recording had user: "add 2 and 2"; the agent sent user: "add 2 and 3". The call went to the model (live from here).',
    );
    expect(rows[1]).toMatchObject({ tone: 'error', text: expect.stringMatching(/got an error/) });
  });
});
