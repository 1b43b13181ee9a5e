import { describe, expect, it } from 'vitest';
import { DeltaBatcher } from './delta-batcher';

describe('DeltaBatcher', () => {
  it('joins pieces that arrive within the interval and flushes the rest on demand', async () => {
    const out: string[] = [];
    const batcher = new DeltaBatcher((t) => out.push(t), 30);
    for (const piece of ['He', 'll', 'o']) batcher.push(piece);
    await new Promise((r) => setTimeout(r, 60));
    batcher.push(', ');
    batcher.push('world');
    batcher.flush();
    batcher.flush();
    expect(out).toEqual(['Hello', ', world']);
  });
});
