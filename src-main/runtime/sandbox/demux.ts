/**
 * Splits Docker's multiplexed exec stream (no TTY) into stdout and stderr. Each frame is
 * an 8-byte header (stream id, 3 zero bytes, big-endian payload length) and the payload.
 * Frames can be split across socket chunks at any byte, so partial headers and payloads
 * are carried over. Payload bytes are passed on untouched (binary-safe).
 */
export type StreamId = 'stdout' | 'stderr';

export class Demuxer {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly sink: (stream: StreamId, payload: Buffer) => void) {}

  push(chunk: Buffer): void {
    let buffer = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    while (buffer.length >= 8) {
      const type = buffer[0];
      const size = buffer.readUInt32BE(4);
      if (buffer.length < 8 + size) break;
      const payload = buffer.subarray(8, 8 + size);
      // 0 is stdin echo (never sent without a TTY); 1 stdout; 2 stderr.
      if (size > 0) this.sink(type === 2 ? 'stderr' : 'stdout', payload);
      buffer = buffer.subarray(8 + size);
    }
    // Copy the remainder: the incoming chunk's memory may be reused by the socket.
    this.pending = Buffer.from(buffer);
  }

  /** bytes received that do not yet form a whole frame */
  get buffered(): number {
    return this.pending.length;
  }
}

/** Builds one frame; used by tests and by nothing in production. */
export function frame(stream: StreamId, payload: Buffer | string): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const header = Buffer.alloc(8);
  header[0] = stream === 'stderr' ? 2 : 1;
  header.writeUInt32BE(body.length, 4);
  return Buffer.concat([header, body]);
}
