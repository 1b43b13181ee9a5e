/**
 * Collects a command's output up to a byte cap, keeping the head and the tail and
 * dropping the middle at the source, so a flood (`yes | head -c 100M`) costs bounded
 * memory. The result says how much was cut, as OpenHands does (reliability.md 2.2,
 * "Output flood"). Bytes are kept as bytes: nothing is filtered, every line survives
 * (the original dropped lines made only of digits, openmanus.md 4.3).
 */
export const DEFAULT_OUTPUT_CAP_BYTES = 64 * 1024;

export class CappedOutput {
  private readonly headMax: number;
  private readonly tailMax: number;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(maxBytes = DEFAULT_OUTPUT_CAP_BYTES) {
    if (!Number.isInteger(maxBytes) || maxBytes < 16) {
      throw new RangeError(`output cap must be an integer >= 16, got ${maxBytes}`);
    }
    this.headMax = Math.floor(maxBytes / 2);
    this.tailMax = maxBytes - this.headMax;
  }

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.total += chunk.length;
    let rest = chunk;
    if (this.headBytes < this.headMax) {
      const take = Math.min(this.headMax - this.headBytes, rest.length);
      this.head.push(Buffer.from(rest.subarray(0, take)));
      this.headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    if (rest.length >= this.tailMax) {
      this.tail = [Buffer.from(rest.subarray(rest.length - this.tailMax))];
      this.tailBytes = this.tailMax;
      return;
    }
    this.tail.push(Buffer.from(rest));
    this.tailBytes += rest.length;
    while (this.tailBytes > this.tailMax) {
      const first = this.tail[0];
      if (!first) break;
      const excess = this.tailBytes - this.tailMax;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
      }
    }
  }

  /** every byte seen, kept or not */
  get totalBytes(): number {
    return this.total;
  }

  get omittedBytes(): number {
    return this.total - this.headBytes - this.tailBytes;
  }

  get isTruncated(): boolean {
    return this.omittedBytes > 0;
  }

  /** the kept bytes, with a marker where the middle was cut */
  toBuffer(): Buffer {
    const head = Buffer.concat(this.head);
    const tail = Buffer.concat(this.tail);
    if (!this.isTruncated) return Buffer.concat([head, tail]);
    const { headEnd, tailStart, omitted } = this.#boundaries(head, tail);
    return Buffer.concat([
      head.subarray(0, headEnd),
      Buffer.from(truncationMarker(omitted)),
      tail.subarray(tailStart),
    ]);
  }

  /**
   * The cut this capture made, as its marker and the bytes it stands for: a later cap
   * (max_observe) that cuts the marker away adds them to its own count instead of
   * reporting only what it cut itself (issue 17: "55,679 cut" when ~467,000 were).
   */
  cut(): OutputCut | null {
    if (!this.isTruncated) return null;
    const { omitted } = this.#boundaries(Buffer.concat(this.head), Buffer.concat(this.tail));
    return { marker: truncationMarker(omitted), omitted };
  }

  // Cut on UTF-8 character boundaries so the text around the marker stays readable.
  #boundaries(head: Buffer, tail: Buffer) {
    const headEnd = utf8BoundaryBefore(head, head.length);
    const tailStart = utf8BoundaryAfter(tail, 0);
    return { headEnd, tailStart, omitted: this.omittedBytes + (head.length - headEnd) + tailStart };
  }

  /** decoded as UTF-8; invalid bytes become U+FFFD rather than failing */
  toString(): string {
    return this.toBuffer().toString('utf8');
  }
}

/** A middle cut of captured output: the marker put in its place and the bytes it stands for. */
export interface OutputCut {
  marker: string;
  omitted: number;
}

export function truncationMarker(omittedBytes: number): string {
  return `\n[... ${omittedBytes.toLocaleString('en-US')} bytes of output omitted ...]\n`;
}

function isContinuation(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

/** the largest index <= end that does not split a multi-byte character */
function utf8BoundaryBefore(buffer: Buffer, end: number): number {
  let i = end;
  // Step back over continuation bytes to the lead byte, then check the sequence fits.
  let back = 0;
  while (i > 0 && back < 3 && isContinuation(buffer[i - 1])) {
    i--;
    back++;
  }
  if (i === 0) return end;
  const lead = buffer[i - 1] ?? 0;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return need === back + 1 ? end : i - 1;
}

function utf8BoundaryAfter(buffer: Buffer, start: number): number {
  let i = start;
  while (i < buffer.length && i - start < 3 && isContinuation(buffer[i])) i++;
  return i;
}

/** The cuts of a command's captured streams, for CommandResult.cuts. */
export function cutsOf(...outputs: CappedOutput[]): OutputCut[] {
  return outputs.map((o) => o.cut()).filter((c): c is OutputCut => c !== null);
}
