import { describe, expect, it } from 'vitest';
import { coalescedReload } from './coalesced-reload';

describe('coalescedReload', () => {
  it('keeps one read in flight and folds the pushes meanwhile into one more read', async () => {
    const pending: (() => void)[] = [];
    let reads = 0;
    let isLive = true;
    const reload = coalescedReload(
      () =>
        new Promise<void>((resolve) => {
          reads++;
          pending.push(resolve);
        }),
      () => isLive,
    );
    const settle = async () => {
      pending.shift()?.();
      await new Promise((r) => setTimeout(r, 0));
    };
    reload();
    reload();
    reload();
    expect(reads).toBe(1);
    await settle();
    expect(reads).toBe(2); // the three pushes made one more read, not two
    await settle();
    expect(reads).toBe(2);
    // a view that went away reads no more
    reload();
    reload();
    isLive = false;
    await settle();
    expect(reads).toBe(3);
  });
});
