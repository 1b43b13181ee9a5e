/**
 * OTLP/JSON (the protobuf messages in their JSON mapping: hex trace and span ids, 64-bit
 * integers as strings, lowerCamelCase field names), read into the same model as
 * otlp-proto.ts reads protobuf.
 */
import type { AttributeValue, Attributes, ResourceSpans, Span } from './otlp-model';

interface JsonValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: JsonValue[] };
  bytesValue?: string;
}
interface JsonKeyValue {
  key: string;
  value?: JsonValue;
}

function value(v: JsonValue | undefined): AttributeValue | undefined {
  if (!v) return undefined;
  if (v.stringValue !== undefined) return String(v.stringValue);
  if (v.boolValue !== undefined) return Boolean(v.boolValue);
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return Number(v.doubleValue);
  if (v.bytesValue !== undefined) return String(v.bytesValue);
  if (v.arrayValue) {
    return (v.arrayValue.values ?? [])
      .map(value)
      .filter((x) => x !== undefined && !Array.isArray(x)) as string[];
  }
  return undefined;
}

function attributes(list: JsonKeyValue[] | undefined): Attributes {
  const out: Attributes = {};
  for (const kv of list ?? []) {
    const v = value(kv.value);
    if (typeof kv.key === 'string' && v !== undefined) out[kv.key] = v;
  }
  return out;
}

const big = (v: unknown): bigint => {
  try {
    return BigInt(typeof v === 'number' ? Math.round(v) : String(v ?? '0'));
  } catch {
    return 0n;
  }
};

/** Reads an ExportTraceServiceRequest in JSON; throws on a body that is not one. */
export function decodeTracesJson(text: string): ResourceSpans[] {
  const body = JSON.parse(text) as {
    resourceSpans?: {
      resource?: { attributes?: JsonKeyValue[] };
      scopeSpans?: {
        scope?: { name?: string; version?: string };
        spans?: Record<string, unknown>[];
      }[];
    }[];
  };
  if (!body || !Array.isArray(body.resourceSpans)) {
    throw new Error('not an OTLP ExportTraceServiceRequest: no resourceSpans');
  }
  return body.resourceSpans.map((rs) => ({
    resource: attributes(rs.resource?.attributes),
    scopes: (rs.scopeSpans ?? []).map((ss) => ({
      name: ss.scope?.name ?? '',
      ...(ss.scope?.version ? { version: ss.scope.version } : {}),
      spans: (ss.spans ?? []).map((s): Span => {
        const status = s['status'] as { code?: number; message?: string } | undefined;
        return {
          traceId: String(s['traceId'] ?? '').toLowerCase(),
          spanId: String(s['spanId'] ?? '').toLowerCase(),
          ...(s['parentSpanId'] ? { parentSpanId: String(s['parentSpanId']).toLowerCase() } : {}),
          name: String(s['name'] ?? ''),
          kind: Number(s['kind'] ?? 0),
          startNs: big(s['startTimeUnixNano']),
          endNs: big(s['endTimeUnixNano']),
          attributes: attributes(s['attributes'] as JsonKeyValue[] | undefined),
          events: ((s['events'] as Record<string, unknown>[] | undefined) ?? []).map((e) => ({
            timeNs: big(e['timeUnixNano']),
            name: String(e['name'] ?? ''),
            attributes: attributes(e['attributes'] as JsonKeyValue[] | undefined),
          })),
          ...(status
            ? {
                status: {
                  code: Number(status.code ?? 0),
                  ...(status.message ? { message: status.message } : {}),
                },
              }
            : {}),
        };
      }),
    })),
  }));
}
