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

class Writer {
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  private push(bytes: Uint8Array): void {
    this.parts.push(bytes);
    this.size += bytes.length;
  }

  varint(value: bigint | number): this {
    let v = BigInt.asUintN(64, BigInt(value));
    const out: number[] = [];
    while (v > 0x7fn) {
      out.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    out.push(Number(v));
    this.push(Uint8Array.from(out));
    return this;
  }

  tag(field: number, wireType: number): this {
    return this.varint((field << 3) | wireType);
  }

  bytes(field: number, data: Uint8Array): this {
    this.tag(field, 2).varint(data.length);
    this.push(data);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  message(field: number, inner: Writer): this {
    return this.bytes(field, inner.finish());
  }

  fixed64(field: number, value: bigint): this {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, BigInt.asUintN(64, value), true);
    this.tag(field, 1);
    this.push(b);
    return this;
  }

  double(field: number, value: number): this {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, value, true);
    this.tag(field, 1);
    this.push(b);
    return this;
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const part of this.parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
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

function keyValues(w: Writer, field: number, attributes: Attributes): void {
  for (const [key, value] of Object.entries(attributes)) {
    w.message(field, new Writer().string(1, key).message(2, anyValue(value)));
  }
}

function hex(value: string): Uint8Array {
  return Uint8Array.from(Buffer.from(value, 'hex'));
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
  const scopeSpans = new Writer().message(
    1,
    new Writer().string(1, SCOPE.name).string(2, SCOPE.version),
  );
  for (const span of spans) scopeSpans.message(2, spanMessage(span));
  const resourceMessage = new Writer();
  keyValues(resourceMessage, 1, resource);
  const resourceSpans = new Writer().message(1, resourceMessage).message(2, scopeSpans);
  return new Writer().message(1, resourceSpans).finish();
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
