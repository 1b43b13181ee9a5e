/**
 * OTLP trace messages in protobuf (opentelemetry-proto: collector/trace/v1
 * ExportTraceServiceRequest and what it holds), written and read by hand: the few
 * messages and fields traces use, so a run neither needs nor loads a protobuf library
 * (docs/telemetry.md). Field numbers are the .proto's; unknown fields are skipped on read,
 * as protobuf requires. The tests decode what this writes with the definitions shipped in
 * @opentelemetry/otlp-transformer, and read what the OpenTelemetry JS exporter sends.
 */
import type { AttributeValue, Attributes, ResourceSpans, Span, SpanEvent } from './otlp-model';
import { SCOPE } from './otlp-model';

// ---- writing

const utf8 = new TextEncoder();

/**
 * Bytes in a plain array (small integers are what V8 keeps fastest), copied once into a
 * Uint8Array at the end; a nested message is written into its own Writer and appended.
 * Live export encodes every span of every run on the run's thread: this stays cheap.
 */
class Writer {
  readonly buf: number[] = [];

  varint(value: bigint | number): this {
    const buf = this.buf;
    if (typeof value === 'number' && value >= 0 && value <= 0x7fffffff) {
      let v = value;
      while (v > 0x7f) {
        buf.push((v & 0x7f) | 0x80);
        v >>>= 7;
      }
      buf.push(v);
      return this;
    }
    let v = BigInt.asUintN(64, BigInt(value));
    while (v > 0x7fn) {
      buf.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    buf.push(Number(v));
    return this;
  }

  tag(field: number, wireType: number): this {
    return this.varint((field << 3) | wireType);
  }

  bytes(field: number, data: ArrayLike<number>): this {
    this.tag(field, 2).varint(data.length);
    const buf = this.buf;
    for (let i = 0; i < data.length; i++) buf.push(data[i]!);
    return this;
  }

  string(field: number, value: string): this {
    // ASCII (ids, names, most attribute values) goes straight in
    let isAscii = true;
    for (let i = 0; i < value.length; i++) {
      if (value.charCodeAt(i) > 0x7f) {
        isAscii = false;
        break;
      }
    }
    if (!isAscii) return this.bytes(field, utf8.encode(value));
    this.tag(field, 2).varint(value.length);
    const buf = this.buf;
    for (let i = 0; i < value.length; i++) buf.push(value.charCodeAt(i));
    return this;
  }

  message(field: number, inner: Writer): this {
    return this.bytes(field, inner.buf);
  }

  fixed64(field: number, value: bigint): this {
    const v = BigInt.asUintN(64, value);
    const low = Number(v & 0xffffffffn);
    const high = Number(v >> 32n);
    this.tag(field, 1);
    this.buf.push(
      low & 0xff,
      (low >>> 8) & 0xff,
      (low >>> 16) & 0xff,
      low >>> 24,
      high & 0xff,
      (high >>> 8) & 0xff,
      (high >>> 16) & 0xff,
      high >>> 24,
    );
    return this;
  }

  double(field: number, value: number): this {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, value, true);
    this.tag(field, 1);
    for (const byte of b) this.buf.push(byte);
    return this;
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.buf);
  }
}

function anyValue(value: AttributeValue | string | number | boolean): Writer {
  const w = new Writer();
  if (Array.isArray(value)) {
    const list = new Writer();
    for (const item of value) list.message(1, anyValue(item));
    return w.message(5, list);
  }
  if (typeof value === 'string') return w.string(1, value);
  if (typeof value === 'boolean') return w.tag(2, 0).varint(value ? 1 : 0);
  if (Number.isInteger(value)) return w.tag(3, 0).varint(BigInt(value));
  return w.double(4, value);
}

function varintLength(n: number): number {
  let length = 1;
  while (n > 0x7f) {
    n >>>= 7;
    length++;
  }
  return length;
}

function isAscii(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) > 0x7f) return false;
  return true;
}

function keyValues(w: Writer, field: number, attributes: Attributes): void {
  for (const key in attributes) {
    const value = attributes[key]!;
    // a string value (most of them, and the large ones) is written in place: its
    // KeyValue and AnyValue lengths are known from its byte length, no nested copies
    if (typeof value === 'string' && isAscii(value) && isAscii(key)) {
      const any = 1 + varintLength(value.length) + value.length;
      const kv = 1 + varintLength(key.length) + key.length + 1 + varintLength(any) + any;
      w.tag(field, 2).varint(kv);
      w.string(1, key);
      w.tag(2, 2).varint(any);
      w.string(1, value);
      continue;
    }
    w.message(field, new Writer().string(1, key).message(2, anyValue(value)));
  }
}

function hex(value: string): Buffer {
  return Buffer.from(value, 'hex');
}

function spanMessage(span: Span): Writer {
  const w = new Writer().bytes(1, hex(span.traceId)).bytes(2, hex(span.spanId));
  if (span.parentSpanId) w.bytes(4, hex(span.parentSpanId));
  w.string(5, span.name).tag(6, 0).varint(span.kind);
  w.fixed64(7, span.startNs).fixed64(8, span.endNs);
  keyValues(w, 9, span.attributes);
  for (const event of span.events) {
    const e = new Writer().fixed64(1, event.timeNs).string(2, event.name);
    keyValues(e, 3, event.attributes);
    w.message(11, e);
  }
  if (span.status) {
    const s = new Writer();
    if (span.status.message) s.string(2, span.status.message);
    s.tag(3, 0).varint(span.status.code);
    w.message(15, s);
  }
  return w;
}

/** An ExportTraceServiceRequest holding `spans` under one resource and the workbench's scope. */
export function encodeTraces(resource: Attributes, spans: readonly Span[]): Uint8Array {
  // Each span is written once; the enclosing messages only get their length prefixes.
  const spanParts = spans.map((span) => {
    const body = spanMessage(span).buf;
    const head = new Writer().tag(2, 2).varint(body.length).buf;
    return { head, body, length: head.length + body.length };
  });
  const scope = new Writer()
    .message(1, new Writer().string(1, SCOPE.name).string(2, SCOPE.version))
    .finish();
  const scopeSpansLength = scope.length + spanParts.reduce((sum, p) => sum + p.length, 0);
  const resourceMessage = new Writer();
  keyValues(resourceMessage, 1, resource);
  const resourceHead = new Writer().message(1, resourceMessage).tag(2, 2).varint(scopeSpansLength);
  const resourceSpansLength = resourceHead.buf.length + scopeSpansLength;
  const top = new Writer().tag(1, 2).varint(resourceSpansLength);
  const out = new Uint8Array(top.buf.length + resourceSpansLength);
  let at = 0;
  const put = (bytes: ArrayLike<number>) => {
    out.set(bytes, at);
    at += bytes.length;
  };
  put(top.buf);
  put(resourceHead.buf);
  put(scope);
  for (const part of spanParts) {
    put(part.head);
    put(part.body);
  }
  return out;
}

// ---- reading

class Reader {
  private at = 0;
  constructor(private readonly buf: Uint8Array) {}

  get done(): boolean {
    return this.at >= this.buf.length;
  }

  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.at >= this.buf.length) throw new Error('truncated protobuf varint');
      const byte = this.buf[this.at++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
      if (shift > 70n) throw new Error('protobuf varint too long');
    }
  }

  fixed(n: 4 | 8): DataView {
    if (this.at + n > this.buf.length) throw new Error('truncated protobuf field');
    const view = new DataView(this.buf.buffer, this.buf.byteOffset + this.at, n);
    this.at += n;
    return view;
  }

  bytes(): Uint8Array {
    const length = Number(this.varint());
    if (this.at + length > this.buf.length) throw new Error('truncated protobuf bytes');
    const out = this.buf.subarray(this.at, this.at + length);
    this.at += length;
    return out;
  }

  /** Calls `field` for each field; skips the ones it does not take (returns false). */
  fields(field: (number: number, wireType: number) => boolean): void {
    while (!this.done) {
      const tag = Number(this.varint());
      const number = tag >>> 3;
      const wireType = tag & 7;
      if (field(number, wireType)) continue;
      if (wireType === 0) this.varint();
      else if (wireType === 1) this.fixed(8);
      else if (wireType === 2) this.bytes();
      else if (wireType === 5) this.fixed(4);
      else throw new Error(`unsupported protobuf wire type ${wireType}`);
    }
  }
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

function walk(buf: Uint8Array, field: (n: number, t: number, r: Reader) => boolean): void {
  const reader = new Reader(buf);
  reader.fields((n, t) => field(n, t, reader));
}

function readAnyValue(buf: Uint8Array): AttributeValue | undefined {
  let value: AttributeValue | undefined;
  walk(buf, (n, t, r) => {
    if (n === 1 && t === 2) value = text(r.bytes());
    else if (n === 2 && t === 0) value = r.varint() !== 0n;
    else if (n === 3 && t === 0) value = Number(BigInt.asIntN(64, r.varint()));
    else if (n === 4 && t === 1) value = r.fixed(8).getFloat64(0, true);
    else if (n === 5 && t === 2) {
      const items: (string | number | boolean)[] = [];
      walk(r.bytes(), (m, u, list) => {
        if (m !== 1 || u !== 2) return false;
        const item = readAnyValue(list.bytes());
        if (item !== undefined && !Array.isArray(item)) items.push(item);
        return true;
      });
      value = items as string[];
    } else if (n === 7 && t === 2) value = Buffer.from(r.bytes()).toString('base64');
    else return false;
    return true;
  });
  return value;
}

function readKeyValue(buf: Uint8Array, into: Attributes): void {
  let key = '';
  let value: AttributeValue | undefined;
  walk(buf, (n, t, r) => {
    if (n === 1 && t === 2) key = text(r.bytes());
    else if (n === 2 && t === 2) value = readAnyValue(r.bytes());
    else return false;
    return true;
  });
  if (key && value !== undefined) into[key] = value;
}

function readSpan(buf: Uint8Array): Span {
  const span: Span = {
    traceId: '',
    spanId: '',
    name: '',
    kind: 0,
    startNs: 0n,
    endNs: 0n,
    attributes: {},
    events: [],
  };
  walk(buf, (n, t, r) => {
    if (n === 1 && t === 2) span.traceId = toHex(r.bytes());
    else if (n === 2 && t === 2) span.spanId = toHex(r.bytes());
    else if (n === 4 && t === 2) {
      const parent = toHex(r.bytes());
      if (parent) span.parentSpanId = parent;
    } else if (n === 5 && t === 2) span.name = text(r.bytes());
    else if (n === 6 && t === 0) span.kind = Number(r.varint());
    else if (n === 7 && t === 1) span.startNs = r.fixed(8).getBigUint64(0, true);
    else if (n === 8 && t === 1) span.endNs = r.fixed(8).getBigUint64(0, true);
    else if (n === 9 && t === 2) readKeyValue(r.bytes(), span.attributes);
    else if (n === 11 && t === 2) span.events.push(readEvent(r.bytes()));
    else if (n === 15 && t === 2) {
      const status = { code: 0 } as { code: number; message?: string };
      walk(r.bytes(), (m, u, s) => {
        if (m === 2 && u === 2) status.message = text(s.bytes());
        else if (m === 3 && u === 0) status.code = Number(s.varint());
        else return false;
        return true;
      });
      span.status = status;
    } else return false;
    return true;
  });
  return span;
}

function readEvent(buf: Uint8Array): SpanEvent {
  const event: SpanEvent = { timeNs: 0n, name: '', attributes: {} };
  walk(buf, (n, t, r) => {
    if (n === 1 && t === 1) event.timeNs = r.fixed(8).getBigUint64(0, true);
    else if (n === 2 && t === 2) event.name = text(r.bytes());
    else if (n === 3 && t === 2) readKeyValue(r.bytes(), event.attributes);
    else return false;
    return true;
  });
  return event;
}

/** Reads an ExportTraceServiceRequest; throws on bytes that are not one. */
export function decodeTraces(buf: Uint8Array): ResourceSpans[] {
  const out: ResourceSpans[] = [];
  walk(buf, (n, t, r) => {
    if (n !== 1 || t !== 2) return false;
    const entry: ResourceSpans = { resource: {}, scopes: [] };
    walk(r.bytes(), (m, u, rs) => {
      if (m === 1 && u === 2) {
        walk(rs.bytes(), (k, v, res) => {
          if (k !== 1 || v !== 2) return false;
          readKeyValue(res.bytes(), entry.resource);
          return true;
        });
      } else if (m === 2 && u === 2) {
        const scope = { name: '', spans: [] as Span[] } as ResourceSpans['scopes'][number];
        walk(rs.bytes(), (k, v, ss) => {
          if (k === 1 && v === 2) {
            walk(ss.bytes(), (a, b, sc) => {
              if (a === 1 && b === 2) scope.name = text(sc.bytes());
              else if (a === 2 && b === 2) scope.version = text(sc.bytes());
              else return false;
              return true;
            });
          } else if (k === 2 && v === 2) scope.spans.push(readSpan(ss.bytes()));
          else return false;
          return true;
        });
        entry.scopes.push(scope);
      } else return false;
      return true;
    });
    out.push(entry);
    return true;
  });
  return out;
}
