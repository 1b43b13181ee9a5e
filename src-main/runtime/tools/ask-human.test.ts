import { describe, expect, it } from 'vitest';
import type { RunEventPayload } from '@shared/events';
import { HumanBroker } from './human-broker';
import { CancelledError } from '../util/abort';
import { createAskHumanTool } from './ask-human';
import type { ToolContext } from './tool';

function context(signal: AbortSignal, events: RunEventPayload[]): ToolContext {
  return {
    signal,
    runId: 'run-1',
    agent: 'manus',
    step: 1,
    toolCallId: 'call-1',
    emit: (e) => events.push(e),
  };
}

describe('ask_human', () => {
  it('fixes openmanus 7.2 item 11: waits for the answer without blocking the event loop', async () => {
    const broker = new HumanBroker();
    broker.attach({ name: 'test surface' });
    const events: RunEventPayload[] = [];
    const tool = createAskHumanTool(broker);
    const pending = tool.execute(
      { inquire: 'Which port?' },
      context(new AbortController().signal, events),
    );
    // The event loop keeps turning while the question waits.
    let ticks = 0;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (++ticks === 5) {
          clearInterval(timer);
          resolve();
        }
      }, 1);
    });
    expect(broker.pending('run-1').map((q) => q.question)).toEqual(['Which port?']);
    expect(broker.answer('run-1', 'call-1', '8080')).toBe('accepted');
    expect(await pending).toEqual({ output: '8080' });
    expect(events).toEqual([
      { type: 'human.requested', toolCallId: 'call-1', question: 'Which port?' },
      { type: 'human.answered', toolCallId: 'call-1', answer: '8080' },
    ]);
  });

  it('is cancelled with the run', async () => {
    const broker = new HumanBroker();
    broker.attach({ name: 'test surface' });
    const controller = new AbortController();
    const pending = createAskHumanTool(broker).execute(
      { inquire: 'still there?' },
      context(controller.signal, []),
    );
    controller.abort(new CancelledError('Stopped by the user'));
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    expect(broker.pending()).toEqual([]);
  });

  it('tells the model when no one can answer instead of hanging', async () => {
    const result = await createAskHumanTool(new HumanBroker()).execute(
      { inquire: 'anyone?' },
      context(new AbortController().signal, []),
    );
    expect(result.error).toMatch(/not interactive/);
  });
});
