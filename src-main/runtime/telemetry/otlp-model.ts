/**
 * The part of OTLP traces the workbench writes and reads (docs/telemetry.md): spans with
 * attributes and events under one resource and scope, independent of the wire form
 * (protobuf in otlp-proto.ts, JSON in otlp-json.ts).
 */

export type AttributeValue = string | number | boolean | string[] | number[];
export type Attributes = Record<string, AttributeValue>;

/** Span kinds as OTLP numbers them. */
export const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;
/** Status codes as OTLP numbers them. */
export const STATUS_CODE = { unset: 0, ok: 1, error: 2 } as const;

export interface SpanEvent {
  timeNs: bigint;
  name: string;
  attributes: Attributes;
}

export interface Span {
  /** 32 hex digits */
  traceId: string;
  /** 16 hex digits */
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Attributes;
  events: SpanEvent[];
  status?: { code: number; message?: string };
}

/** Spans as a receiver gets them: each with its resource's and scope's attributes. */
export interface ResourceSpans {
  resource: Attributes;
  scopes: { name: string; version?: string; spans: Span[] }[];
}

export const SCOPE = { name: 'agent-workbench', version: '1' };

export function msToNs(ms: number): bigint {
  return BigInt(Math.round(ms)) * 1_000_000n;
}

export function nsToMs(ns: bigint): number {
  return Number(ns / 1_000_000n);
}
