/**
 * `workbench run` / `runs show`: a message's image is a line naming its file (issue 17);
 * the run's last state line names the outcome the verdict line gives (issue 25).
 */
import { describe, expect, it } from 'vitest';
import { createEventStamper, type EventMessage } from '@shared/events';
import { RunPrinter } from './run-printer';

const REF = `${'c'.repeat(64)}.png`;

type ImagePath = (runId: string, ref: string) => string | undefined;

function print(
  message: EventMessage,
  imagePath: ImagePath = (runId, ref) => `/home/u/.agent-workbench/runs/${runId}.images/${ref}`,
): string[] {
  const lines: string[] = [];
  const printer = new RunPrinter((line) => lines.push(line), imagePath);
  const s = createEventStamper('run-1');
  printer.onEvent(s.stamp({ type: 'memory.appended', agent: 'browser', index: 3, message }));
  return lines;
}

describe('RunPrinter: images', () => {
  it('names the file a kept image is in, with its type, size and dimensions', () => {
    expect(
      print({
        role: 'user',
        content: 'Image returned by the `browser_use` call c1 (image/png).',
        imageMimeType: 'image/png',
        image: { mimeType: 'image/png', bytes: 34_816, width: 1280, height: 720, ref: REF },
      }),
    ).toEqual([
      `  image: image/png 1280×720, 34 KB → /home/u/.agent-workbench/runs/run-1.images/${REF}`,
    ]);
  });

  it('says why an image was not kept', () => {
    expect(
      print({
        role: 'user',
        content: 'x',
        imageMimeType: 'image/svg+xml',
        image: { mimeType: 'image/svg+xml', bytes: 10, notKept: 'not a kept type' },
      }),
    ).toEqual(['  image: image/svg+xml, 10 B (not kept: not a kept type)']);
  });

  it('says an old history (only the type recorded) did not keep it', () => {
    expect(print({ role: 'user', content: 'x', imageMimeType: 'image/png' })).toEqual([
      '  image: image/png (not kept in this history)',
    ]);
  });

  it('names no file for an image the history does not have (item 8)', () => {
    const image = { mimeType: 'image/png', bytes: 70, width: 2, height: 2, ref: REF };
    expect(print({ role: 'user', content: 'x', image }, () => undefined)).toEqual([
      '  image: image/png 2×2, 70 B (image file missing)',
    ]);
  });

  it('never asks for, nor prints, a path from a ref that is not an image ref (item 8)', () => {
    const asked: string[] = [];
    const imagePath: ImagePath = (runId, ref) => {
      asked.push(ref);
      return `/runs/${runId}.images/${ref}`;
    };
    for (const ref of [
      '../../etc/passwd',
      '/etc/passwd',
      `../${'c'.repeat(64)}.png`,
      `${REF}\u0000`,
      `${'c'.repeat(64)}.svg`,
    ]) {
      const image = { mimeType: 'image/png', bytes: 70, ref };
      expect(print({ role: 'user', content: 'x', image }, imagePath), ref).toEqual([
        '  image: image/png, 70 B (image file missing)',
      ]);
    }
    expect(asked).toEqual([]);
  });
});

describe('RunPrinter: the state line names the outcome (issue 25 item 7)', () => {
  function printRun(outcome: 'cancelled' | 'finished', tail: 'run.finished' | 'none'): string[] {
    const lines: string[] = [];
    const printer = new RunPrinter((line) => lines.push(line));
    const s = createEventStamper('run-1');
    printer.onEvent(
      s.stamp({
        type: 'run.started',
        agent: 'toolcall',
        task: 't',
        maxSteps: 3,
        model: 'm',
        sessionId: 's',
      }),
    );
    printer.onEvent(
      s.stamp({ type: 'state.changed', agent: 'toolcall', from: 'IDLE', to: 'RUNNING' }),
    );
    printer.onEvent(
      s.stamp({ type: 'state.changed', agent: 'toolcall', from: 'RUNNING', to: 'FINISHED' }),
    );
    if (tail === 'run.finished') {
      printer.onEvent(
        s.stamp({
          type: 'run.finished',
          outcome,
          state: 'FINISHED',
          steps: 1,
          usage: { prompt: 1, completion: 2 },
        }),
      );
    }
    printer.end();
    return lines
      .flatMap((l) => l.split('\n'))
      .filter((l) => l.includes('state') || l.startsWith('■'));
  }

  it('a stopped run: `RUNNING → FINISHED (outcome: cancelled)`, then the verdict line', () => {
    expect(printRun('cancelled', 'run.finished')).toEqual([
      '  state IDLE → RUNNING',
      '  state RUNNING → FINISHED (outcome: cancelled)',
      '■ cancelled after 1 steps (1 prompt + 2 completion tokens)',
    ]);
  });

  it('a plain finish needs no note, and a history without run.finished keeps its last state', () => {
    expect(printRun('finished', 'run.finished')).toEqual([
      '  state IDLE → RUNNING',
      '  state RUNNING → FINISHED',
      '■ finished after 1 steps (1 prompt + 2 completion tokens)',
    ]);
    expect(printRun('finished', 'none')).toEqual([
      '  state IDLE → RUNNING',
      '  state RUNNING → FINISHED',
    ]);
  });
});
