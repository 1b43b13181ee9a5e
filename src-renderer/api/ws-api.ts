/**
 * AppApi over the WebSocket of `workbench serve`. Requests made while the socket is
 * still connecting are queued; a dropped connection rejects what is pending and is
 * reported to the listeners (the store shows it).
 */
import {
  API_SUBSCRIPTIONS,
  AppApiError,
  unwrapResult,
  type AppApi,
  type IpcResult,
  type PushMap,
  type RequestChannel,
} from '@shared/ipc';
import { TOKEN_PARAM, WS_PATH, type WsRequestFrame, type WsServerFrame } from '@shared/ws-protocol';

export interface WsApi extends AppApi {
  close(): void;
  onConnectionChange(listener: (connected: boolean) => void): () => void;
}

type Pending = { resolve: (result: IpcResult<unknown>) => void; reject: (error: Error) => void };

export function createWsApi(url: string, WebSocketImpl: typeof WebSocket = WebSocket): WsApi {
  const socket = new WebSocketImpl(url);
  let nextId = 1;
  const pending = new Map<number, Pending>();
  const queue: string[] = [];
  const eventListeners = new Set<(payload: PushMap['run:events']) => void>();
  const connectionListeners = new Set<(connected: boolean) => void>();

  socket.addEventListener('open', () => {
    for (const frame of queue.splice(0)) socket.send(frame);
    for (const l of connectionListeners) l(true);
  });
  socket.addEventListener('message', (message: MessageEvent) => {
    const frame = JSON.parse(String(message.data)) as WsServerFrame;
    if (frame.kind === 'response') {
      pending.get(frame.id)?.resolve(frame.result);
      pending.delete(frame.id);
    } else if (frame.kind === 'push' && frame.channel === API_SUBSCRIPTIONS.onRunEvents) {
      for (const l of eventListeners) l(frame.payload);
    }
  });
  socket.addEventListener('close', () => {
    for (const p of pending.values()) {
      p.reject(
        new AppApiError({
          code: 'unavailable',
          message: 'The connection to the workbench server was lost',
        }),
      );
    }
    pending.clear();
    for (const l of connectionListeners) l(false);
  });

  function request<T>(channel: RequestChannel, input: unknown): Promise<T> {
    const id = nextId++;
    const frame = JSON.stringify({ kind: 'request', id, channel, input } satisfies WsRequestFrame);
    return new Promise<IpcResult<unknown>>((resolve, reject) => {
      if (socket.readyState === socket.CLOSED || socket.readyState === socket.CLOSING) {
        reject(
          new AppApiError({
            code: 'unavailable',
            message: 'Not connected to the workbench server',
          }),
        );
        return;
      }
      pending.set(id, { resolve, reject });
      if (socket.readyState === socket.OPEN) socket.send(frame);
      else queue.push(frame);
    }).then((result) => unwrapResult(result as IpcResult<T>));
  }

  return {
    startRun: (input) => request('run:start', input),
    stopRun: (input) => request('run:stop', input),
    listRuns: (input) => request('runs:list', input),
    onRunEvents(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    onConnectionChange(listener) {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    },
    close: () => socket.close(),
  };
}

/** ws://same-host/ws?token=... from the page's own URL (`?token=` is printed by serve). */
export function wsUrlFromLocation(
  location: Pick<Location, 'protocol' | 'host' | 'search'>,
): string {
  const token = new URLSearchParams(location.search).get(TOKEN_PARAM);
  if (!token) {
    throw new Error(
      'This page needs the access token: open the full URL printed by `workbench serve` (it ends with ?token=...).',
    );
  }
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${WS_PATH}?${TOKEN_PARAM}=${encodeURIComponent(token)}`;
}
