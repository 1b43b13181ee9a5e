/**
 * AppApi over the WebSocket of `workbench serve`. Requests made while the socket is
 * connecting are queued; a dropped connection rejects what is pending, is reported to
 * the connection listeners, and is retried with a growing delay (the listeners hear
 * `true` again when it is back, which is when a UI re-reads its snapshot). After an attempt
 * fails it asks the server whether the token is the reason (ws-protocol.ts): a restarted
 * serve has a new token and refuses this one for ever, so retrying ends there, as it does
 * after the last delay; the end listeners hear which, once.
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
  TOKEN_REJECTED_STATUS,
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
  /** the client stopped retrying, and why */
  onConnectionEnded(listener: (end: ConnectionEnd) => void): () => void;
}

/**
 * Why a client stopped retrying: the server does not accept the page's token (it was
 * restarted with a new one, or the link is wrong), or it did not answer through every delay.
 */
export type ConnectionEnd = 'token-rejected' | 'gave-up';

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
  const endListeners = new Set<(end: ConnectionEnd) => void>();
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

  function end(reason: ConnectionEnd): void {
    for (const l of endListeners) l(reason);
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
    // 'close' follows every error and decides what happens next; a WebSocket outside a
    // browser (ws) throws an error nobody listens to (a refused connection while retrying).
    socket.addEventListener('error', () => undefined);
    socket.addEventListener('close', () => {
      const error = unavailable('The connection to the workbench server was lost');
      for (const p of pending.values()) p.reject(error);
      pending.clear();
      queue.length = 0;
      setConnected(false);
      if (isClosedByUser) return;
      if (wasOpen) return retry();
      failedAttempts += 1;
      // A server that answers but refuses the token will refuse every retry the same way.
      void isTokenRefused(url).then((isRefused) => {
        if (isClosedByUser) return;
        if (isRefused) end('token-rejected');
        else retry();
      });
    });
  }

  function retry(): void {
    const delay = delays[Math.min(failedAttempts, delays.length - 1)];
    if (failedAttempts >= delays.length || delay === undefined) return end('gave-up');
    reconnectTimer = setTimeout(open, delay);
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
    onConnectionEnded(listener: (end: ConnectionEnd) => void) {
      endListeners.add(listener);
      return () => endListeners.delete(listener);
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

/**
 * Whether the server behind a WebSocket URL answers that it does not accept its token
 * (`GET /ws?token=` → 401). A server that is down, or any other answer, is not a refusal.
 */
async function isTokenRefused(wsUrl: string): Promise<boolean> {
  const checkUrl = wsUrl.replace(/^ws(s?):/, 'http$1:');
  try {
    const response = await fetch(checkUrl);
    return response.status === TOKEN_REJECTED_STATUS;
  } catch {
    return false;
  }
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
