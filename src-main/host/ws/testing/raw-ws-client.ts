/**
 * A WebSocket client on a bare TCP socket, for tests that must send what no well-behaved
 * client library would: unmasked frames, reserved bits, bad opcodes, invalid UTF-8, lying
 * lengths, random bytes. It does the handshake, writes raw bytes, and reads the server's
 * frames back to learn how (and whether) the server closed the connection.
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

export interface FrameSpec {
  opcode: number;
  payload?: Buffer | string;
  fin?: boolean;
  /** RSV1-3 as a 3-bit number */
  rsv?: number;
  /** clients must mask; false sends an unmasked frame (a protocol violation) */
  mask?: boolean;
  /** writes this length in the header instead of the payload's real one */
  declaredLength?: bigint;
}

export const OPCODE = { continuation: 0, text: 1, binary: 2, close: 8, ping: 9, pong: 10 };

/** One frame as a client sends it (RFC 6455 5.2). */
export function encodeFrame(spec: FrameSpec): Buffer {
  const payload = Buffer.isBuffer(spec.payload)
    ? spec.payload
    : Buffer.from(spec.payload ?? '', 'utf8');
  const isMasked = spec.mask ?? true;
  const length = spec.declaredLength ?? BigInt(payload.length);
  const first = ((spec.fin ?? true) ? 0x80 : 0) | ((spec.rsv ?? 0) << 4) | (spec.opcode & 0x0f);
  const maskBit = isMasked ? 0x80 : 0;
  let header: Buffer;
  if (length < 126n) {
    header = Buffer.from([first, maskBit | Number(length)]);
  } else if (length < 65536n) {
    header = Buffer.alloc(4);
    header[0] = first;
    header[1] = maskBit | 126;
    header.writeUInt16BE(Number(length), 2);
  } else {
    header = Buffer.alloc(10);
    header[0] = first;
    header[1] = maskBit | 127;
    header.writeBigUInt64BE(length, 2);
  }
  if (!isMasked) return Buffer.concat([header, payload]);
  const key = randomBytes(4);
  const masked = Buffer.from(payload);
  for (let i = 0; i < masked.length; i++)
    masked[i] = (masked[i] as number) ^ (key[i % 4] as number);
  return Buffer.concat([header, key, masked]);
}

export function textFrame(text: string | Buffer): Buffer {
  return encodeFrame({ opcode: OPCODE.text, payload: text });
}

export function closeFrame(code: number, reason: Buffer | string = ''): Buffer {
  const body = Buffer.alloc(2);
  body.writeUInt16BE(code);
  return encodeFrame({
    opcode: OPCODE.close,
    payload: Buffer.concat([body, Buffer.isBuffer(reason) ? reason : Buffer.from(reason)]),
  });
}

export interface ServerFrame {
  opcode: number;
  payload: Buffer;
}

/** An open raw connection: frames the server sent, and whether it closed the socket. */
export class RawWsConnection {
  readonly frames: ServerFrame[] = [];
  private buffer = Buffer.alloc(0);
  private isEnded = false;
  private hasAnsweredClose = false;
  private readonly waiters = new Set<() => void>();

  constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.parse();
      this.wake();
    });
    const end = () => {
      this.isEnded = true;
      this.wake();
    };
    socket.on('close', end);
    socket.on('end', end);
    // A server that resets the connection is one of the outcomes we look at.
    socket.on('error', end);
  }

  get ended(): boolean {
    return this.isEnded;
  }

  write(bytes: Buffer): void {
    if (!this.socket.destroyed) this.socket.write(bytes);
  }

  /** The close code the server sent (null: it closed without a close frame). */
  async closeCode(timeoutMs = 10_000): Promise<number | null> {
    await this.until(() => this.isEnded || this.frames.some((f) => f.opcode === OPCODE.close), {
      timeoutMs,
    });
    const close = this.frames.find((f) => f.opcode === OPCODE.close);
    if (!close) return null;
    return close.payload.length >= 2 ? close.payload.readUInt16BE(0) : 1005;
  }

  /** Waits until the server has closed the TCP connection. */
  async closed(timeoutMs = 10_000): Promise<void> {
    await this.until(() => this.isEnded, { timeoutMs });
  }

  /** The first text frame whose JSON satisfies `match`. */
  async response(match: (frame: unknown) => boolean, timeoutMs = 10_000): Promise<unknown> {
    let found: unknown;
    await this.until(
      () => {
        for (const frame of this.frames) {
          if (frame.opcode !== OPCODE.text) continue;
          const parsed: unknown = JSON.parse(frame.payload.toString('utf8'));
          if (match(parsed)) {
            found = parsed;
            return true;
          }
        }
        return this.isEnded;
      },
      { timeoutMs },
    );
    if (found === undefined) throw new Error('the connection ended without that response');
    return found;
  }

  destroy(): void {
    this.socket.destroy();
  }

  private until(done: () => boolean, { timeoutMs }: { timeoutMs: number }): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no answer from the server within ${timeoutMs} ms`));
      }, timeoutMs);
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
    });
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Server frames are never masked. */
  private parse(): void {
    for (;;) {
      if (this.buffer.length < 2) return;
      const opcode = (this.buffer[0] as number) & 0x0f;
      let length = (this.buffer[1] as number) & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (this.buffer.length < 4) return;
        length = this.buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (this.buffer.length < 10) return;
        length = Number(this.buffer.readBigUInt64BE(2));
        offset = 10;
      }
      if (this.buffer.length < offset + length) return;
      const payload = this.buffer.subarray(offset, offset + length);
      this.frames.push({ opcode, payload });
      this.buffer = this.buffer.subarray(offset + length);
      // Answer the server's close like any client, so it can drop the connection at once.
      if (opcode === OPCODE.close && !this.hasAnsweredClose) {
        this.hasAnsweredClose = true;
        this.write(encodeFrame({ opcode: OPCODE.close, payload: payload.subarray(0, 2) }));
      }
    }
  }
}

/** Opens a WebSocket to `/ws?token=` by hand and returns once the server said 101. */
export async function rawConnect(port: number, token: string): Promise<RawWsConnection> {
  const socket = connect({ host: '127.0.0.1', port });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const key = randomBytes(16).toString('base64');
  socket.write(
    `GET /ws?token=${encodeURIComponent(token)} HTTP/1.1\r\n` +
      `Host: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  const rest = await new Promise<Buffer>((resolve, reject) => {
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      const status = head.subarray(0, head.indexOf('\r\n')).toString();
      if (!status.includes(' 101 ')) reject(new Error(`handshake refused: ${status}`));
      else resolve(head.subarray(end + 4));
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
  const connection = new RawWsConnection(socket);
  if (rest.length > 0) socket.emit('data', rest);
  return connection;
}
