/**
 * True once the component has stayed mounted for `delayMs`. A timeline row flung past
 * exists for a few frames only: work it would start on mount (loading and decoding a
 * screenshot for its thumbnail) waits until the row has settled in view.
 */
import { useEffect, useState } from 'react';

export function useSettled(delayMs: number): boolean {
  const [isSettled, setSettled] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(true), delayMs);
    return () => clearTimeout(timer);
  }, [delayMs]);
  return isSettled;
}
