/**
 * Hostile input for the WebSocket host (issue 12 item 1): the malformed frames found by
 * an adversarial pass, each with the answer the host must give, and a seeded random
 * fuzzer (random bytes, random framing bits, mutated JSON requests). The unit test and
 * the 10,000-frame integration run against a real `workbench serve` both use it.
 */
import { REQUEST_CHANNELS } from '@shared/ipc';
import { CLOSE } from '../ws-frames';
import { encodeFrame, OPCODE, closeFrame, textFrame } from './raw-ws-client';

/** How the host must react: close with this code, or answer request `id` with an error. */
export type Expected = { close: number } | { answers: number };

export interface MalformedCase {
  name: string;
  frames: Buffer[];
  expected: Expected;
}

const request = (body: string) => textFrame(body);
const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

export const MALFORMED_CASES: MalformedCase[] = [
  // Text that is not a request frame of the protocol.
  { name: 'null as a frame', frames: [request('null')], expected: { close: CLOSE.invalidPayload } },
  { name: 'an array', frames: [request('[]')], expected: { close: CLOSE.invalidPayload } },
  { name: 'a number', frames: [request('42')], expected: { close: CLOSE.invalidPayload } },
  { name: 'a string', frames: [request('"request"')], expected: { close: CLOSE.invalidPayload } },
  { name: 'not JSON', frames: [request('{"kind":')], expected: { close: CLOSE.invalidPayload } },
  { name: 'an empty frame', frames: [request('')], expected: { close: CLOSE.invalidPayload } },
  { name: 'no kind', frames: [request('{"id":1}')], expected: { close: CLOSE.invalidPayload } },
  {
    name: 'a request without an id',
    frames: [request('{"kind":"request","channel":"app:info"}')],
    expected: { close: CLOSE.invalidPayload },
  },
  {
    name: 'a string id',
    frames: [request('{"kind":"request","id":"1","channel":"app:info"}')],
    expected: { close: CLOSE.invalidPayload },
  },
  {
    name: 'an id that overflows to Infinity',
    frames: [request('{"kind":"request","id":1e400,"channel":"app:info"}')],
    expected: { close: CLOSE.invalidPayload },
  },
  {
    name: 'a binary frame',
    frames: [encodeFrame({ opcode: OPCODE.binary, payload: Buffer.from([0, 1, 2]) })],
    expected: { close: CLOSE.unsupportedData },
  },
  // Requests with a usable id: a typed error answer, the connection stays.
  {
    name: 'a channel object whose toString cannot be called',
    frames: [request('{"kind":"request","id":7,"channel":{"toString":1,"valueOf":{}}}')],
    expected: { answers: 7 },
  },
  {
    name: 'a channel array',
    frames: [request('{"kind":"request","id":8,"channel":["app:info"]}')],
    expected: { answers: 8 },
  },
  {
    name: 'an inherited property as the channel',
    frames: [request('{"kind":"request","id":9,"channel":"__proto__","input":{}}')],
    expected: { answers: 9 },
  },
  {
    name: 'null input',
    frames: [request('{"kind":"request","id":10,"channel":"run:start","input":null}')],
    expected: { answers: 10 },
  },
  {
    name: 'a __proto__ key in the input',
    frames: [
      request('{"kind":"request","id":11,"channel":"run:stop","input":{"__proto__":{"a":1}}}'),
    ],
    expected: { answers: 11 },
  },
  {
    name: 'input nested 100,000 deep',
    frames: [request(`{"kind":"request","id":12,"channel":"runs:get","input":${deep(100_000)}}`)],
    expected: { answers: 12 },
  },
  // Raw protocol violations (RFC 6455): the ws library closes; the host must survive it.
  {
    name: 'an unmasked client frame',
    frames: [encodeFrame({ opcode: OPCODE.text, payload: '{}', mask: false })],
    expected: { close: CLOSE.protocolError },
  },
  {
    name: 'RSV1 set without an extension',
    frames: [encodeFrame({ opcode: OPCODE.text, payload: '{}', rsv: 4 })],
    expected: { close: CLOSE.protocolError },
  },
  {
    name: 'a reserved data opcode',
    frames: [encodeFrame({ opcode: 3, payload: 'x' })],
    expected: { close: CLOSE.protocolError },
  },
  {
    name: 'a reserved control opcode',
    frames: [encodeFrame({ opcode: 0xb, payload: 'x' })],
    expected: { close: CLOSE.protocolError },
  },
  {
    name: 'a fragmented ping',
    frames: [encodeFrame({ opcode: OPCODE.ping, payload: 'x', fin: false })],
    expected: { close: CLOSE.protocolError },
  },
  {
    name: 'a control frame over 125 bytes',
    frames: [encodeFrame({ opcode: OPCODE.ping, payload: Buffer.alloc(126, 1) })],
    expected: { close: CLOSE.protocolError },
  },
  {
    name: 'a continuation with nothing to continue',
    frames: [encodeFrame({ opcode: OPCODE.continuation, payload: 'x' })],
    expected: { close: CLOSE.protocolError },
  },
  {
    name: 'a new message inside a fragmented one',
    frames: [
      encodeFrame({ opcode: OPCODE.text, payload: '{"kind"', fin: false }),
      encodeFrame({ opcode: OPCODE.text, payload: 'x' }),
    ],
    expected: { close: CLOSE.protocolError },
  },
  {
    name: 'invalid UTF-8 text',
    frames: [textFrame(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))],
    expected: { close: CLOSE.invalidPayload },
  },
  {
    name: 'invalid UTF-8 split across fragments',
    frames: [
      encodeFrame({ opcode: OPCODE.text, payload: Buffer.from([0x22, 0xe2, 0x82]), fin: false }),
      encodeFrame({ opcode: OPCODE.continuation, payload: Buffer.from([0x41, 0x22]) }),
    ],
    expected: { close: CLOSE.invalidPayload },
  },
  {
    name: 'a close code that may not be sent (999)',
    frames: [closeFrame(999)],
    expected: { close: CLOSE.protocolError },
  },
  {
    name: 'a close frame with a 1-byte body',
    frames: [encodeFrame({ opcode: OPCODE.close, payload: Buffer.from([3]) })],
    expected: { close: CLOSE.protocolError },
  },
  {
    name: 'a close reason that is not UTF-8',
    frames: [closeFrame(1000, Buffer.from([0xff, 0xfe]))],
    expected: { close: CLOSE.invalidPayload },
  },
  {
    name: 'a 64-bit length with the top bit set',
    frames: [encodeFrame({ opcode: OPCODE.text, declaredLength: 1n << 63n })],
    expected: { close: CLOSE.messageTooBig },
  },
  {
    name: 'a frame declared over the 256 MB cap',
    frames: [encodeFrame({ opcode: OPCODE.text, declaredLength: 257n * 1024n * 1024n })],
    expected: { close: CLOSE.messageTooBig },
  },
];

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Channels the fuzzer aims at. `run:start` and `config:test-connection` are left out on
 * purpose: a random input that happened to be valid would start real runs or dial a model
 * provider in the middle of a fuzz run; their validation is covered by the cases above.
 */
const FUZZ_CHANNELS = [
  ...REQUEST_CHANNELS.filter((c) => c !== 'run:start' && c !== 'config:test-connection'),
  'fs:read',
  '',
];

/** One random frame: raw bytes, random framing, or a mutated JSON request. */
export function randomFrame(random: () => number): Buffer {
  const int = (n: number) => Math.floor(random() * n);
  const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => int(256)));
  const pick = <T>(list: readonly T[]): T => list[int(list.length)] as T;
  const roll = random();
  if (roll < 0.15) return bytes(1 + int(64)); // anything at all on the wire
  if (roll < 0.3) {
    return encodeFrame({
      opcode: int(16),
      fin: random() < 0.8,
      rsv: random() < 0.2 ? int(8) : 0,
      mask: random() < 0.9,
      payload: bytes(int(200)),
    });
  }
  if (roll < 0.4) return textFrame(bytes(int(100)));
  const value = (depth: number): unknown => {
    const kind = int(depth > 3 ? 5 : 8);
    if (kind === 0) return null;
    if (kind === 1) return random() < 0.5;
    if (kind === 2) return pick([0, -1, 1.5, 1e308, Number.MAX_SAFE_INTEGER, int(1e6)]);
    if (kind === 3) return pick(['', 'x', 'app:info', '__proto__', 'constructor', '\u0000']);
    if (kind === 4) return bytes(int(20)).toString('latin1');
    if (kind === 5) return Array.from({ length: int(4) }, () => value(depth + 1));
    const keys = ['runId', 'limit', 'afterSeq', 'target', 'content', 'answer', 'toString'];
    return Object.fromEntries(Array.from({ length: int(4) }, () => [pick(keys), value(depth + 1)]));
  };
  const frame: Record<string, unknown> = {
    kind: random() < 0.9 ? 'request' : value(4),
    id: random() < 0.9 ? int(1e6) : value(4),
    channel: random() < 0.85 ? pick(FUZZ_CHANNELS) : value(2),
    input: value(0),
  };
  let text = JSON.stringify(frame);
  if (random() < 0.1) text = text.slice(0, int(text.length)); // torn
  return textFrame(text);
}
