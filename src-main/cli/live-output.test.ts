import { describe, expect, it } from 'vitest';
import { createEventStamper, type RunEventOf } from '@shared/events';
import { LiveOutputLines } from './live-output';

const stamper = createEventStamper('r');
function output(stream: 'stdout' | 'stderr', text: string, omittedBytes?: number) {
  return stamper.stamp({
    type: 'tool.output',
    agent: 'manus',
    step: 1,
    toolCallId: 'c1',
    name: 'bash',
    stream,
    text,
    ...(omittedBytes !== undefined ? { omittedBytes } : {}),
  }) as RunEventOf<'tool.output'>;
}

describe('LiveOutputLines', () => {
  it('prints whole lines under a gutter; the rest of a line waits for its end', () => {
    const lines = new LiveOutputLines();
    expect(lines.onOutput(output('stdout', 'one\ntw'))).toBe('    │ one');
    expect(lines.onOutput(output('stdout', 'o\nthr'))).toBe('    │ two');
    expect(lines.onOutput(output('stderr', 'oops\n'))).toBe('    ! oops');
    expect(lines.onFinished('c1')).toBe('    │ thr');
    expect(lines.onFinished('c1')).toBeNull();
  });

  it('cuts very long lines and says how much output was not streamed', () => {
    const lines = new LiveOutputLines();
    const printed = lines.onOutput(output('stdout', `${'x'.repeat(1000)}\n`))!;
    expect(printed).toBe(`    │ ${'x'.repeat(240)}… (760 more characters)`);
    expect(lines.onOutput(output('stdout', '', 434_464))).toMatch(
      /│ … 434,464 more bytes not shown live/,
    );
  });
});
