/**
 * For telemetry tests: a plain HTTP server that keeps every OTLP request it is sent
 * (with the time it arrived), and the protobuf definitions the OpenTelemetry JS packages
 * ship (the protobufjs code generated from opentelemetry-proto, in the otlp-transformer
 * the OTLP proto exporter depends on) to decode them independently of our reader.
 */
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  at: number;
  contentType: string;
  body: Buffer;
}

export interface TestReceiver {
  url: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startTestReceiver(status = 200): Promise<TestReceiver> {
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        at: Date.now(),
        contentType: req.headers['content-type'] ?? '',
        body: Buffer.concat(chunks),
      });
      res.writeHead(status, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The generated protobufjs root of opentelemetry-proto, as an OTel JS package ships it. */
const GENERATED_ROOT =
  '@traceloop/node-server-sdk/node_modules/@opentelemetry/exporter-trace-otlp-proto/node_modules/@opentelemetry/otlp-transformer/build/src/generated/root.js';

interface DecodedValue {
  stringValue?: string;
  intValue?: number | { toString(): string };
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values: DecodedValue[] };
}
export interface DecodedSpan {
  traceId: Uint8Array;
  spanId: Uint8Array;
  parentSpanId: Uint8Array;
  name: string;
  kind: number;
  startTimeUnixNano: { toString(): string };
  endTimeUnixNano: { toString(): string };
  attributes: { key: string; value: DecodedValue }[];
  events: { name: string; attributes: { key: string; value: DecodedValue }[] }[];
  status?: { code: number; message: string };
}
interface DecodedRequest {
  resourceSpans: {
    resource: { attributes: { key: string; value: DecodedValue }[] };
    scopeSpans: { scope: { name: string }; spans: DecodedSpan[] }[];
  }[];
}

export function decodeWithOtelDefinitions(body: Uint8Array): DecodedRequest {
  const require = createRequire(import.meta.url);
  const root = require(GENERATED_ROOT) as {
    opentelemetry: {
      proto: {
        collector: {
          trace: { v1: { ExportTraceServiceRequest: { decode(b: Uint8Array): unknown } } };
        };
      };
    };
  };
  return root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest.decode(
    body,
  ) as DecodedRequest;
}

/** An attribute's value as a plain JS value (the oneof member the message really has). */
export function plain(value: DecodedValue): unknown {
  const own = (key: keyof DecodedValue) => Object.prototype.hasOwnProperty.call(value, key);
  if (own('stringValue')) return value.stringValue;
  if (own('arrayValue')) return value.arrayValue!.values.map(plain);
  // a Long (protobufjs' int64) or a number
  if (own('intValue')) return Number(value.intValue!.toString());
  if (own('doubleValue')) return value.doubleValue;
  if (own('boolValue')) return value.boolValue;
  return undefined;
}

export function attributesOf(span: {
  attributes: { key: string; value: DecodedValue }[];
}): Record<string, unknown> {
  return Object.fromEntries(span.attributes.map((a) => [a.key, plain(a.value)]));
}
