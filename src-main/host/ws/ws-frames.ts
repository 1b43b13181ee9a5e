/**
 * What the WebSocket host accepts from a client, decided before anything runs. A text
 * frame must be one JSON request `{kind: 'request', id, channel, input}`; anything else
 * is not our protocol and closes that connection (and only that one) with the code the
 * WebSocket standard gives for it (RFC 6455 7.4.1). A request with a usable id but a
 * bad channel or input is answered with a typed error instead: the client can act on it.
 */

/** RFC 6455 close codes the host uses. */
export const CLOSE = {
  /** the server is going away (shutdown) */
  goingAway: 1001,
  /** a protocol violation (raised by the ws library for bad framing) */
  protocolError: 1002,
  /** a binary frame: the protocol is JSON text only */
  unsupportedData: 1003,
  /** text that is not a request frame of this protocol (also invalid UTF-8) */
  invalidPayload: 1007,
  /** a frame over the size cap */
  messageTooBig: 1009,
} as const;

export interface AcceptedRequest {
  ok: true;
  id: number;
  /** still unchecked: dispatchRequest answers an unknown channel with a typed error */
  channel: unknown;
  input: unknown;
}

export interface RejectedFrame {
  ok: false;
  code: number;
  /** the close reason: at most 123 bytes by the standard, so kept short */
  reason: string;
}

/** Request ids are echoed back; anything but a safe integer cannot be matched reliably. */
function isRequestId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

export function parseRequestFrame(text: string): AcceptedRequest | RejectedFrame {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return { ok: false, code: CLOSE.invalidPayload, reason: 'not JSON' };
  }
  if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) {
    return { ok: false, code: CLOSE.invalidPayload, reason: 'a frame must be a JSON object' };
  }
  const { kind, id, channel, input } = frame as Record<string, unknown>;
  if (kind !== 'request') {
    return { ok: false, code: CLOSE.invalidPayload, reason: 'unknown frame kind' };
  }
  if (!isRequestId(id)) {
    return { ok: false, code: CLOSE.invalidPayload, reason: 'a request needs an integer id' };
  }
  return { ok: true, id, channel, input };
}
