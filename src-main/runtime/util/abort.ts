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
