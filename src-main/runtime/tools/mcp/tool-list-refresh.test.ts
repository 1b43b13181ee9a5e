import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REFRESH_GAP_MS, ToolListRefresh } from './tool-list-refresh';

/** A refresh that stays under way until the test ends it. */
function controlledRefresh() {
  const ends: (() => void)[] = [];
  let count = 0;
  const refresh = new ToolListRefresh(
    () =>
      new Promise<void>((resolve) => {
        count++;
        ends.push(resolve);
      }),
  );
  return { refresh, started: () => count, end: () => ends.shift()?.() };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('tool list refreshes', () => {
  it('take in a burst of 50k changes with one refresh, after the current turn', async () => {
    const { refresh, started } = controlledRefresh();
    for (let i = 0; i < 50_000; i++) refresh.changed();
    expect(started()).toBe(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(started()).toBe(1);
  });

  it('never run two at once: changes during one make one more, no sooner than the gap', async () => {
    const { refresh, started, end } = controlledRefresh();
    refresh.changed();
    await vi.advanceTimersByTimeAsync(0);
    for (let i = 0; i < 1000; i++) refresh.changed();
    await vi.advanceTimersByTimeAsync(REFRESH_GAP_MS * 3);
    expect(started()).toBe(1); // the first is still under way
    end();
    await vi.advanceTimersByTimeAsync(1);
    expect(started()).toBe(2); // its gap had passed
    for (let i = 0; i < 1000; i++) refresh.changed();
    end();
    await vi.advanceTimersByTimeAsync(REFRESH_GAP_MS - 10);
    expect(started()).toBe(2);
    await vi.advanceTimersByTimeAsync(10);
    expect(started()).toBe(3);
    end();
    await vi.advanceTimersByTimeAsync(REFRESH_GAP_MS * 5);
    expect(started()).toBe(3); // nothing changed since
  });

  it('wait while a call runs, and start as soon as it ends (the end of the step)', async () => {
    const { refresh, started, end } = controlledRefresh();
    refresh.callStarted();
    for (let i = 0; i < 1000; i++) refresh.changed();
    await vi.advanceTimersByTimeAsync(REFRESH_GAP_MS * 5);
    expect(started()).toBe(0);
    refresh.callEnded();
    expect(started()).toBe(1);
    let settled = false;
    void refresh.settled(5_000).then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(100);
    expect(settled).toBe(false);
    end();
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(true);
  });

  it('are waited for a bounded time, and not at all when none is under way', async () => {
    const { refresh } = controlledRefresh();
    let settled = false;
    void refresh.settled(5_000).then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(true);
    refresh.callStarted();
    refresh.changed();
    refresh.callEnded();
    settled = false;
    void refresh.settled(5_000).then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
  });

  it('stop when the connection closes', async () => {
    const { refresh, started } = controlledRefresh();
    refresh.changed();
    refresh.stop();
    refresh.changed();
    refresh.callEnded();
    await vi.advanceTimersByTimeAsync(REFRESH_GAP_MS * 2);
    expect(started()).toBe(0);
  });

  it('go on after one that failed', async () => {
    let calls = 0;
    const refresh = new ToolListRefresh(async () => {
      calls++;
      throw new Error('server gone');
    });
    refresh.changed();
    await vi.advanceTimersByTimeAsync(0);
    refresh.changed();
    await vi.advanceTimersByTimeAsync(REFRESH_GAP_MS);
    expect(calls).toBe(2);
  });
});
