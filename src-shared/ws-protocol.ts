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
 * `workbench serve` serves a run's stored images at `IMAGE_PATH/<runId>/<ref>?token=`
 * (the token as for the WebSocket: an <img> cannot send headers).
 */
export const IMAGE_PATH = '/run-images';

export function runImagePath(runId: string, ref: string, token: string): string {
  return `${IMAGE_PATH}/${encodeURIComponent(runId)}/${encodeURIComponent(ref)}?${TOKEN_PARAM}=${encodeURIComponent(token)}`;
}
