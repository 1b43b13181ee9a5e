import { describe, expect, it } from 'vitest';
import type { RunEventOf, RunEventPayload } from '@shared/events';
import { ToolOutputStreamer } from './output-streamer';

function streamer(options: ConstructorParameters<typeof ToolOutputStreamer>[2] = {}) {
  const events: RunEventOf<'tool.output'>[] = [];
  const emit = (e: RunEventPayload) => {
    if (e.type === 'tool.output') events.push(e as RunEventOf<'tool.output'>);
  };
  const s = new ToolOutputStreamer(
    { emit, agent: 'a', step: 2, toolCallId: 'c1' },
    'bash',
    options,
  );
  return { s, events };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('ToolOutputStreamer', () => {
  it('joins chunks that arrive within the interval into one event per stream', async () => {
    const { s, events } = streamer({ intervalMs: 30 });
    for (let i = 0; i < 50; i++) s.onStdout(Buffer.from(`line ${i}\n`));
    s.onStderr(Buffer.from('warn\n'));
    expect(events).toHaveLength(0);
    await sleep(60);
    expect(events.map((e) => e.stream)).toEqual(['stdout', 'stderr']);
    expect(events[0]).toMatchObject({ agent: 'a', step: 2, toolCallId: 'c1', name: 'bash' });
    expect(events[0]!.text.split('\n')).toHaveLength(51);
    s.close();
  });

  it('flushes early at the size limit, streams at most the cap, then counts what it left out', () => {
    const { s, events } = streamer({ intervalMs: 10_000, flushBytes: 100, capBytes: 250 });
    for (let i = 0; i < 100; i++) s.onStdout(Buffer.alloc(50, 'x'));
    // 250 bytes streamed in size-triggered batches, with no timer needed
    expect(events.map((e) => e.text.length)).toEqual([100, 100]);
    s.close();
    const texts = events.map((e) => e.text).join('');
    expect(texts).toBe('x'.repeat(250));
    expect(events.at(-1)).toMatchObject({ text: '', omittedBytes: 5_000 - 250 });
    s.onStdout(Buffer.from('after close'));
    expect(events.at(-1)!.text).toBe('');
  });

  it('keeps a character split across chunks whole', () => {
    const { s, events } = streamer();
    const euro = Buffer.from('€');
    s.onStdout(euro.subarray(0, 1));
    s.onStdout(euro.subarray(1));
    s.close();
    expect(events.map((e) => e.text).join('')).toBe('€');
  });
});
