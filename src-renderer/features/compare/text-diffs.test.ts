import { afterEach, describe, expect, it } from 'vitest';
import { diffText } from '@shared/compare/text-diff';
import { answerDiff, type DiffRequest } from './text-diff-protocol';
import { TextDiffs, type DiffPort } from './text-diffs';

const ports: MessagePort[] = [];
afterEach(() => {
  for (const port of ports.splice(0)) port.close();
});

/** A worker's end of a real message channel, answering as text-diff-worker.ts does. */
function worker(): { port: DiffPort; asked: DiffRequest[] } {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  const asked: DiffRequest[] = [];
  port2.onmessage = (event: MessageEvent<DiffRequest>) => {
    asked.push(event.data);
    port2.postMessage(answerDiff(event.data));
  };
  port1.start();
  return { port: port1 as unknown as DiffPort, asked };
}

describe('text diffs for the compare view', () => {
  it('come from the worker, each asked once, and are known afterwards', async () => {
    const { port, asked } = worker();
    const diffs = new TextDiffs(() => port);
    const a = 'Let me run the tests first.';
    const b = 'I will run the tests first.';
    expect(diffs.peek(a, b, 'words')).toBeUndefined();
    const [one, two] = await Promise.all([diffs.get(a, b, 'words'), diffs.get(a, b, 'words')]);
    expect(one).toEqual(diffText(a, b, 'words'));
    expect(two).toBe(one);
    expect(asked).toHaveLength(1);
    expect(diffs.peek(a, b, 'words')).toBe(one);
    expect(diffs.peek(a, b, 'lines')).toBeUndefined();
  });

  it('are computed at once where no worker can start', async () => {
    const diffs = new TextDiffs(() => {
      throw new Error('Refused to create a worker');
    });
    expect(diffs.peek('a b', 'a c', 'words')).toEqual(diffText('a b', 'a c', 'words'));
    expect(await diffs.get('x', 'y', 'lines')).toEqual(diffText('x', 'y', 'lines'));
  });
});
