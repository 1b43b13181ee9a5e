import { useEffect, useRef, useState } from 'react';

/**
 * `value`, updated at most once per `ms`: the latest value always arrives, at the
 * latest `ms` after it changed. For views that scan the whole run (the overview strips),
 * so a long run folded in hundreds of slices is scanned a few times, not once a slice.
 */
export function useThrottled<T>(value: T, ms: number): T {
  const [shown, setShown] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    if (Object.is(value, shown)) return;
    const wait = last.current + ms - Date.now();
    const timer = setTimeout(
      () => {
        last.current = Date.now();
        setShown(() => value);
      },
      Math.max(0, wait),
    );
    return () => clearTimeout(timer);
  }, [value, shown, ms]);
  return shown;
}
