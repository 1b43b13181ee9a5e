/** Abort helpers shared by the loop, the model clients and the tools. */

export class CancelledError extends Error {
  /** assistant text streamed before the stop (the user saw it; it is kept in memory) */
  partialContent: string | undefined;

  constructor(message = 'The run was cancelled') {
    super(message);
    this.name = 'CancelledError';
  }
}

/** A fresh CancelledError for this stop, carrying the text streamed before it. */
export function cancelledWithPartial(signal: AbortSignal, partialContent: string): CancelledError {
  const error = new CancelledError(abortError(signal).message);
  if (partialContent) error.partialContent = partialContent;
  return error;
}

export function abortError(signal?: AbortSignal): CancelledError {
  const reason: unknown = signal?.reason;
  if (reason instanceof CancelledError) return reason;
  return new CancelledError(reason instanceof Error ? reason.message : undefined);
}

export function isCancellation(error: unknown, signal?: AbortSignal): boolean {
  if (error instanceof CancelledError) return true;
  if (signal?.aborted) return true;
  return (
    error instanceof Error && (error.name === 'AbortError' || error.name === 'APIUserAbortError')
  );
}

/** Resolves after `ms`, or rejects with CancelledError as soon as the signal aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Settles with `work`, or rejects as soon as the signal aborts (the work itself goes on). */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** How a bounded wait ended: the work settled, the time ran out, or the signal aborted. */
export async function waitOutcome(
  work: Promise<unknown>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<'done' | 'timeout' | 'aborted'> {
  if (signal?.aborted) return 'aborted';
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      work.then(() => 'done' as const),
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      }),
      new Promise<'aborted'>((resolve) => {
        onAbort = () => resolve('aborted');
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
