import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useThrottled } from './use-throttled';

afterEach(() => vi.useRealTimers());

describe('useThrottled', () => {
  it('passes the first value at once, then the latest at most once per interval', () => {
    vi.useFakeTimers();
    const { result, rerender } = renderHook(({ v }) => useThrottled(v, 500), {
      initialProps: { v: 1 },
    });
    expect(result.current).toBe(1);
    rerender({ v: 2 });
    act(() => vi.advanceTimersByTime(0));
    expect(result.current).toBe(2);
    rerender({ v: 3 });
    rerender({ v: 4 });
    act(() => vi.advanceTimersByTime(200));
    expect(result.current).toBe(2);
    act(() => vi.advanceTimersByTime(400));
    expect(result.current).toBe(4);
  });
});
