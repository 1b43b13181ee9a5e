/**
 * Frames of the WebSocket transport behind `workbench serve`. The contract itself is
 * `ipc.ts`; this only says how requests, answers and pushes travel as JSON text frames.
 */
import type { IpcResult, PushChannel, PushMap } from './ipc';

export interface WsRequestFrame {
  kind: 'request';
  id: number;
  channel: string;
  input: unknown;
}

export interface WsResponseFrame {
  kind: 'response';
  id: number;
  result: IpcResult<unknown>;
}

export type WsPushFrame = {
  [C in PushChannel]: { kind: 'push'; channel: C; payload: PushMap[C] };
}[PushChannel];

export type WsServerFrame = WsResponseFrame | WsPushFrame;

/** Path of the WebSocket endpoint; the token travels as `?token=`. */
export const WS_PATH = '/ws';
export const TOKEN_PARAM = 'token';

/**
 * A page cannot read why its WebSocket upgrade was refused (a browser reports 1006 for a
 * 401 exactly as for a server that is down), so the server answers a plain
 * `GET WS_PATH?token=` too: 204 when it accepts the token, 401 when not. A page whose
 * connection failed asks once, and on 401 knows the server was restarted with another
 * token (or the link is wrong): retrying cannot help. The answer has no body.
 */
export const TOKEN_REJECTED_STATUS = 401;

/**
 * `workbench serve` serves a run's stored images at `IMAGE_PATH/<runId>/<ref>?token=`
 * (the token as for the WebSocket: an <img> cannot send headers).
 */
export const IMAGE_PATH = '/run-images';

export function runImagePath(runId: string, ref: string, token: string): string {
  return `${IMAGE_PATH}/${encodeURIComponent(runId)}/${encodeURIComponent(ref)}?${TOKEN_PARAM}=${encodeURIComponent(token)}`;
}
