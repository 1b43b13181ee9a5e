import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSettled } from './use-settled';

afterEach(() => vi.useRealTimers());

describe('useSettled', () => {
  it('turns true only after the component stayed mounted for the delay', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useSettled(150));
    expect(result.current).toBe(false);
    act(() => vi.advanceTimersByTime(149));
    expect(result.current).toBe(false);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(true);
  });

  it('never fires for a component that went away first', () => {
    vi.useFakeTimers();
    const { result, unmount } = renderHook(() => useSettled(150));
    act(() => vi.advanceTimersByTime(100));
    unmount();
    expect(vi.getTimerCount()).toBe(0);
    expect(result.current).toBe(false);
  });
});
