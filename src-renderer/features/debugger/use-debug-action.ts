/**
 * Runs a debugger request and keeps its error for the bar to show in place (the run may
 * have moved on between the click and the answer: the message says what happened).
 */
import { useCallback, useState } from 'react';

export function useDebugAction() {
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const run = useCallback(async <T>(action: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await action();
    } catch (e) {
      setError((e as Error).message);
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { error, isBusy, run, fail: setError };
}
