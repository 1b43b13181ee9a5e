import { describe, expect, it } from 'vitest';
import type { RunEventPayload } from '@shared/events';
import { CancelledError } from '../util/abort';
import { HumanBroker, HumanUnavailableError } from './human-broker';

function request(broker: HumanBroker, signal = new AbortController().signal) {
  const emitted: RunEventPayload[] = [];
  const answer = broker.ask({
    runId: 'r1',
    toolCallId: 'call_1',
    question: 'Which file?',
    signal,
    emit: (e) => emitted.push(e),
  });
  return { answer, emitted };
}

describe('HumanBroker', () => {
  it('fails at once, with a reason the model can relay, when no surface can answer', async () => {
    const broker = new HumanBroker();
    const { answer, emitted } = request(broker);
    await expect(answer).rejects.toBeInstanceOf(HumanUnavailableError);
    await expect(answer).rejects.toThrow(/not interactive/);
    expect(emitted).toEqual([]);
  });

  it('puts the question to the attached surfaces and resolves with the answer', async () => {
    const broker = new HumanBroker();
    const seen: string[] = [];
    broker.attach({ name: 'tty', onQuestion: (q) => seen.push(q.question) });
    const { answer, emitted } = request(broker);
    expect(seen).toEqual(['Which file?']);
    expect(broker.pending('r1')).toMatchObject([{ toolCallId: 'call_1', question: 'Which file?' }]);
    expect(broker.answer('r1', 'call_other', 'x')).toBe('not_found');
    expect(broker.answer('r1', 'call_1', 'main.py')).toBe('accepted');
    await expect(answer).resolves.toBe('main.py');
    expect(emitted).toEqual([
      { type: 'human.requested', toolCallId: 'call_1', question: 'Which file?' },
      { type: 'human.answered', toolCallId: 'call_1', answer: 'main.py' },
    ]);
    expect(broker.pending()).toEqual([]);
    // a second answer to the same question is refused
    expect(broker.answer('r1', 'call_1', 'again')).toBe('not_found');
  });

  it('cancelling the run cancels the wait', async () => {
    const broker = new HumanBroker();
    const detach = broker.attach({ name: 'ui' });
    const controller = new AbortController();
    const { answer } = request(broker, controller.signal);
    controller.abort(new CancelledError('Stopped by the user'));
    await expect(answer).rejects.toThrow('Stopped by the user');
    expect(broker.pending()).toEqual([]);
    detach();
    expect(broker.hasSurface).toBe(false);
  });

  it('shows questions already waiting to a surface that attaches later', () => {
    const broker = new HumanBroker();
    broker.attach({ name: 'first' });
    void request(broker).answer.catch(() => {});
    const late: string[] = [];
    broker.attach({ name: 'late', onQuestion: (q) => late.push(q.toolCallId) });
    expect(late).toEqual(['call_1']);
  });
});
