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
 * The close code of a WebSocket whose token the server does not accept (4000-4999 are
 * the application's by RFC 6455). A browser never sees the HTTP status of a refused
 * upgrade (only 1006, as for a server that is down), so the server accepts the upgrade
 * and closes at once with this code: the page can tell "the server was restarted with
 * another token" from "the server is down" and stop retrying. Nothing else is sent.
 */
export const CLOSE_TOKEN_REJECTED = 4401;

/**
 * `workbench serve` serves a run's stored images at `IMAGE_PATH/<runId>/<ref>?token=`
 * (the token as for the WebSocket: an <img> cannot send headers).
 */
export const IMAGE_PATH = '/run-images';

export function runImagePath(runId: string, ref: string, token: string): string {
  return `${IMAGE_PATH}/${encodeURIComponent(runId)}/${encodeURIComponent(ref)}?${TOKEN_PARAM}=${encodeURIComponent(token)}`;
}
