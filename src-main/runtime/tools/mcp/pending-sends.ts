/**
 * Messages on their way out when a connection is closed. Over SSE and streamable HTTP
 * each message the client sends is its own POST, and closing the transport aborts the
 * POSTs still in flight: a run stopped just before its session closed (Ctrl-C in the
 * CLI: stop, then quit) lost the `notifications/cancelled` it had just sent, and the
 * server went on with the work (issue 16 item 4). The transport's sends are tracked so
 * a close first lets them arrive, for a short while.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

export interface PendingSends {
  /** waits until every send in flight has ended, or `graceMs` passed */
  drain(graceMs: number): Promise<void>;
}

export function trackSends(transport: Transport): PendingSends {
  const inFlight = new Set<Promise<void>>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const sending = send(message, options);
    const tracked = sending.then(
      () => undefined,
      () => undefined,
    );
    inFlight.add(tracked);
    void tracked.finally(() => inFlight.delete(tracked));
    return sending;
  };
  return {
    async drain(graceMs) {
      if (inFlight.size === 0) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([...inFlight]),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(timer);
    },
  };
}
