/**
 * Every engine call runs under a deadline and the caller's abort signal. The signal is
 * handed to dockerode (which passes it to the HTTP request), and the call is also raced
 * against it, so a library path that ignores the signal still cannot hang the caller.
 */
import { abortError } from '../util/abort';
import { EngineTimeoutError } from './errors';

/** Default deadlines per kind of call (ms). */
export const ENGINE_DEADLINES = {
  ping: 5_000,
  quick: 15_000,
  create: 60_000,
  archive: 120_000,
  pull: 20 * 60_000,
} as const;

export async function withDeadline<T>(
  what: string,
  endpoint: string,
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  if (callerSignal?.aborted) throw abortError(callerSignal);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new EngineTimeoutError(what, timeoutMs, endpoint));
  }, timeoutMs);
  const onCallerAbort = () => controller.abort(abortError(callerSignal));
  callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(controller.signal.reason as Error);
    controller.signal.addEventListener('abort', onAbort, { once: true });
  });
  // The race's losing side must not surface as an unhandled rejection.
  aborted.catch(() => undefined);
  try {
    return await Promise.race([call(controller.signal), aborted]);
  } catch (error) {
    if (timedOut) throw new EngineTimeoutError(what, timeoutMs, endpoint);
    if (callerSignal?.aborted) throw abortError(callerSignal);
    throw error;
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onCallerAbort);
    if (onAbort) controller.signal.removeEventListener('abort', onAbort);
  }
}
