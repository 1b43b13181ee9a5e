/**
 * A signal of its own for each request to a server. The SDK adds an abort listener to
 * the signal of every request and never removes it; given the run's signal, every MCP
 * call of a run left one more listener on it (MaxListenersExceededWarning after ten
 * calls, and closures kept for the whole run). The SDK gets a signal that follows the
 * run's and is dropped with the call; ours is removed from the run's signal when the
 * work ends.
 */
export async function withCallSignal<T, S extends AbortSignal | undefined>(
  outer: S,
  work: (signal: S) => Promise<T>,
): Promise<T> {
  if (!outer) return work(outer);
  const own = new AbortController();
  const forward = () => own.abort(outer.reason);
  if (outer.aborted) forward();
  else outer.addEventListener('abort', forward, { once: true });
  try {
    // S is AbortSignal here (outer is set); TypeScript does not narrow a type parameter
    return await work(own.signal as S);
  } finally {
    outer.removeEventListener('abort', forward);
  }
}
