import { describe, expect, it } from 'vitest';
import { createEventStamper, looksLikeRunEvent, type RunEvent } from './events';
import { isImageRef } from './image-ref';
import { wireMessage } from './model-request';

describe('createEventStamper', () => {
  it('stamps v, runId, ts and a gapless seq starting at 1', () => {
    let now = 1000;
    const stamper = createEventStamper('run-1', () => now++);
    const a = stamper.stamp({ type: 'step.started', agent: 'manus', step: 1, maxSteps: 5 });
    const b = stamper.stamp({ type: 'step.finished', agent: 'manus', step: 1, durationMs: 3 });
    expect(a).toMatchObject({ v: 1, runId: 'run-1', seq: 1, ts: 1000, type: 'step.started' });
    expect(b).toMatchObject({ seq: 2, ts: 1001 });
    expect(stamper.lastSeq).toBe(2);
  });
});

describe('looksLikeRunEvent', () => {
  it('accepts stamped events and rejects anything else', () => {
    const event = createEventStamper('r').stamp({
      type: 'human.answered',
      toolCallId: 'c',
      answer: 'yes',
    });
    expect(looksLikeRunEvent(event)).toBe(true);
    expect(looksLikeRunEvent(JSON.parse(JSON.stringify(event)))).toBe(true);
    for (const bad of [
      null,
      3,
      'x',
      {},
      { ...event, v: 2 },
      { ...event, seq: 0 },
      { ...event, seq: 1.5 },
      { ...event, type: 'nope' },
    ]) {
      expect(looksLikeRunEvent(bad)).toBe(false);
    }
  });
});

describe('issue 17 contract additions', () => {
  it('tool.output is a known event type and round-trips as JSON', () => {
    const event = createEventStamper('r').stamp({
      type: 'tool.output',
      agent: 'manus',
      step: 3,
      toolCallId: 'call_1',
      name: 'bash',
      stream: 'stderr',
      text: 'warning\n',
      omittedBytes: 12,
    });
    expect(looksLikeRunEvent(JSON.parse(JSON.stringify(event)))).toBe(true);
  });

  it('llm.responded may say how long its call queued; one from before that still reads', () => {
    const stamper = createEventStamper('r');
    const answer = {
      type: 'llm.responded' as const,
      agent: 'manus',
      step: 2,
      model: 'gpt-4o',
      content: 'ok',
      toolCalls: [],
      usage: { prompt: 3, completion: 1 },
      durationMs: 2_400,
      finishReason: 'stop',
    };
    const queued = JSON.parse(JSON.stringify(stamper.stamp({ ...answer, queuedMs: 2_000 })));
    expect(looksLikeRunEvent(queued)).toBe(true);
    expect(queued.queuedMs).toBe(2_000);
    const old = JSON.parse(JSON.stringify(stamper.stamp(answer)));
    expect(looksLikeRunEvent(old)).toBe(true);
    expect('queuedMs' in old).toBe(false);
  });

  it('llm.requested from before the exact-request fields still reads', () => {
    const old = {
      v: 1,
      runId: 'r',
      seq: 4,
      ts: 1,
      type: 'llm.requested',
      agent: 'manus',
      step: 1,
      model: 'gpt-4o',
      messageCount: 2,
      inputTokens: 30,
    };
    expect(looksLikeRunEvent(old)).toBe(true);
  });
});

describe('issue 17: images in memory.appended', () => {
  const ref = `${'e'.repeat(64)}.png`;

  it('message.image names the kept file next to imageMimeType, and round-trips as JSON', () => {
    const event = createEventStamper('r').stamp({
      type: 'memory.appended',
      agent: 'browser',
      index: 4,
      message: {
        role: 'user',
        content: 'Image returned by the `browser_use` call c1 (image/png).',
        imageMimeType: 'image/png',
        image: { mimeType: 'image/png', bytes: 1234, width: 800, height: 600, ref },
      },
    });
    const read = JSON.parse(JSON.stringify(event)) as RunEvent;
    expect(looksLikeRunEvent(read)).toBe(true);
    expect(read).toEqual(event);
    if (read.type !== 'memory.appended') throw new Error('type changed');
    expect(isImageRef(read.message.image!.ref!)).toBe(true);
    expect(wireMessage(read.message).content).toEqual([
      { type: 'text', text: 'Image returned by the `browser_use` call c1 (image/png).' },
      {
        type: 'image_url',
        image_url: { url: `(a image/png image, kept in the history as ${ref})` },
      },
    ]);
  });

  it('an image that was not kept says why; an old event with only imageMimeType still reads', () => {
    const notKept = createEventStamper('r').stamp({
      type: 'memory.appended',
      agent: 'mcp',
      index: 2,
      message: {
        role: 'user',
        content: 'x',
        imageMimeType: 'image/svg+xml',
        image: { mimeType: 'image/svg+xml', bytes: 80, notKept: 'not a kept type' },
      },
    });
    expect(looksLikeRunEvent(JSON.parse(JSON.stringify(notKept)))).toBe(true);
    const old = {
      v: 1,
      runId: 'r',
      seq: 9,
      ts: 1,
      type: 'memory.appended',
      agent: 'browser',
      index: 3,
      message: { role: 'user', content: 'x', imageMimeType: 'image/png' },
    };
    expect(looksLikeRunEvent(old)).toBe(true);
    expect(wireMessage(old.message as never).content).toEqual([
      { type: 'text', text: 'x' },
      { type: 'image_url', image_url: { url: '(a image/png image, not recorded)' } },
    ]);
  });
});
