import { useEffect, useState } from 'react';

/** The current time, refreshed every `intervalMs` while `isActive` (for live durations). */
export function useNow(isActive: boolean, intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!isActive) return;
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [isActive, intervalMs]);
  return now;
}
