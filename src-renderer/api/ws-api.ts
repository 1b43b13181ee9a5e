/**
 * AppApi over the WebSocket of `workbench serve`. Requests made while the socket is
 * connecting are queued; a dropped connection rejects what is pending, is reported to
 * the connection listeners, and is retried with a growing delay (the listeners hear
 * `true` again when it is back, which is when a UI re-reads its snapshot).
 */
import {
  API_METHODS,
  API_SUBSCRIPTIONS,
  AppApiError,
  PUSH_CHANNELS,
  unwrapResult,
  type AppApi,
  type IpcResult,
  type PushChannel,
  type RequestChannel,
} from '@shared/ipc';
import {
  TOKEN_PARAM,
  WS_PATH,
  runImagePath,
  type WsRequestFrame,
  type WsServerFrame,
} from '@shared/ws-protocol';

export interface WsApi extends AppApi {
  close(): void;
  /**
   * a stored image's address on the serving host (`<img src>` loads it lazily, no
   * base64 through the socket); its token is the socket's
   */
  imageUrl(runId: string, ref: string): string;
  onConnectionChange(listener: (connected: boolean) => void): () => void;
}

export interface WsApiOptions {
  /** delays between reconnection attempts; after the last one it gives up */
  reconnectDelaysMs?: readonly number[];
}

type Pending = { resolve: (result: IpcResult<unknown>) => void; reject: (error: Error) => void };

const DEFAULT_RECONNECT_DELAYS = [250, 500, 1000, 2000, 4000, 8000, 8000, 8000];

function unavailable(message: string): AppApiError {
  return new AppApiError({ code: 'unavailable', message });
}

export function createWsApi(
  url: string,
  WebSocketImpl: typeof WebSocket = WebSocket,
  options: WsApiOptions = {},
): WsApi {
  const delays = options.reconnectDelaysMs ?? DEFAULT_RECONNECT_DELAYS;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  const queue: string[] = [];
  const pushListeners = new Map<PushChannel, Set<(payload: unknown) => void>>(
    PUSH_CHANNELS.map((channel) => [channel, new Set()]),
  );
  const connectionListeners = new Set<(connected: boolean) => void>();
  let socket: WebSocket;
  let isClosedByUser = false;
  let failedAttempts = 0;
  /** null until the first attempt ends, so listeners hear each change exactly once */
  let isConnected: boolean | null = null;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;

  function setConnected(value: boolean): void {
    if (isConnected === value) return;
    isConnected = value;
    for (const l of connectionListeners) l(value);
  }

  function open(): void {
    socket = new WebSocketImpl(url);
    let wasOpen = false;
    socket.addEventListener('open', () => {
      wasOpen = true;
      failedAttempts = 0;
      for (const frame of queue.splice(0)) socket.send(frame);
      setConnected(true);
    });
    socket.addEventListener('message', (message: MessageEvent) => onFrame(String(message.data)));
    socket.addEventListener('close', () => {
      const error = unavailable('The connection to the workbench server was lost');
      for (const p of pending.values()) p.reject(error);
      pending.clear();
      queue.length = 0;
      setConnected(false);
      if (isClosedByUser) return;
      if (!wasOpen) failedAttempts += 1;
      const delay = delays[Math.min(failedAttempts, delays.length - 1)];
      if (failedAttempts >= delays.length || delay === undefined) return;
      reconnectTimer = setTimeout(open, delay);
    });
  }

  function onFrame(text: string): void {
    let frame: WsServerFrame;
    try {
      frame = JSON.parse(text) as WsServerFrame;
    } catch {
      return; // not our protocol
    }
    if (frame.kind === 'response') {
      pending.get(frame.id)?.resolve(frame.result);
      pending.delete(frame.id);
    } else if (frame.kind === 'push') {
      for (const l of pushListeners.get(frame.channel) ?? []) l(frame.payload);
    }
  }

  function request(channel: RequestChannel, input: unknown): Promise<unknown> {
    const id = nextId++;
    const frame = JSON.stringify({ kind: 'request', id, channel, input } satisfies WsRequestFrame);
    return new Promise<IpcResult<unknown>>((resolve, reject) => {
      if (socket.readyState === socket.CLOSED || socket.readyState === socket.CLOSING) {
        reject(unavailable('Not connected to the workbench server'));
        return;
      }
      pending.set(id, { resolve, reject });
      if (socket.readyState === socket.OPEN) socket.send(frame);
      else queue.push(frame);
    }).then((result) => unwrapResult(result));
  }

  open();
  const api: Record<string, unknown> = {};
  for (const [method, channel] of Object.entries(API_METHODS)) {
    api[method] = (input: unknown) => request(channel, input);
  }
  for (const [method, channel] of Object.entries(API_SUBSCRIPTIONS)) {
    api[method] = (listener: (payload: unknown) => void) => {
      const listeners = pushListeners.get(channel);
      listeners?.add(listener);
      return () => listeners?.delete(listener);
    };
  }
  return Object.assign(api as AppApi, {
    onConnectionChange(listener: (connected: boolean) => void) {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    },
    imageUrl(runId: string, ref: string) {
      const token = new URL(url, 'http://placeholder').searchParams.get(TOKEN_PARAM) ?? '';
      return runImagePath(runId, ref, token);
    },
    close() {
      isClosedByUser = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      socket.close();
    },
  });
}

/** ws://same-host/ws?token=... from the page's own URL (`?token=` is printed by serve). */
export function wsUrlFromLocation(location: {
  protocol: string;
  host: string;
  search: string;
}): string {
  const token = new URLSearchParams(location.search).get(TOKEN_PARAM);
  if (!token) {
    throw new Error(
      'This page needs the access token: open the full URL printed by `workbench serve` (it ends with ?token=...).',
    );
  }
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${WS_PATH}?${TOKEN_PARAM}=${encodeURIComponent(token)}`;
}
