import { describe, expect, it } from 'vitest';
import { CancelledError } from './abort';
import { SlotQueue, type QueuePosition } from './slot-queue';

const settled = async <T>(promise: Promise<T>) => {
  let state: 'pending' | 'resolved' | 'rejected' = 'pending';
  promise.then(
    () => (state = 'resolved'),
    () => (state = 'rejected'),
  );
  await new Promise((r) => setImmediate(r));
  return state;
};

describe('SlotQueue', () => {
  it('hands out slots up to its capacity, then queues first come, first served', async () => {
    const queue = new SlotQueue(2);
    const a = await queue.acquire();
    const b = await queue.acquire();
    const order: string[] = [];
    const c = queue.acquire().then((s) => (order.push('c'), s));
    const d = queue.acquire().then((s) => (order.push('d'), s));
    expect(await settled(c)).toBe('pending');
    expect(queue.waiting).toBe(2);
    a.release();
    (await c).release();
    b.release();
    await d;
    expect(order).toEqual(['c', 'd']);
    expect(queue.used).toBe(1);
  });

  it('tells a waiter its place each time it changes', async () => {
    const queue = new SlotQueue(1);
    const first = await queue.acquire();
    const places: QueuePosition[][] = [[], []];
    const x = queue.acquire({ onQueued: (p) => places[0]!.push(p) });
    const y = queue.acquire({ onQueued: (p) => places[1]!.push(p) });
    first.release();
    await x;
    expect(places[0]).toEqual([{ ahead: 0, inUse: 1, capacity: 1 }]);
    expect(places[1]).toEqual([
      { ahead: 1, inUse: 1, capacity: 1 },
      { ahead: 0, inUse: 1, capacity: 1 },
    ]);
    void y;
  });

  it('lets a cancelled waiter leave at once, and those behind it move up', async () => {
    const queue = new SlotQueue(1);
    const held = await queue.acquire();
    const controller = new AbortController();
    const leaving = queue.acquire({ signal: controller.signal });
    const places: number[] = [];
    const staying = queue.acquire({ onQueued: (p) => places.push(p.ahead) });
    controller.abort();
    await expect(leaving).rejects.toBeInstanceOf(CancelledError);
    expect(places).toEqual([1, 0]);
    held.release();
    await staying;
    expect(queue.used).toBe(1);
    expect(queue.waiting).toBe(0);
  });

  it('counts a release once, and takes a new capacity into account', async () => {
    const queue = new SlotQueue(1);
    const slot = await queue.acquire();
    slot.release();
    slot.release();
    expect(queue.used).toBe(0);
    const a = await queue.acquire();
    const b = queue.acquire();
    queue.setCapacity(2);
    expect(await settled(b)).toBe('resolved');
    a.release();
    expect(() => new SlotQueue(0)).toThrow(/at least one slot/);
  });
});
