/**
 * A bridge for the `@openai/agents` SDK (docs/telemetry.md, "OpenAI Agents SDK"): a
 * TracingProcessor that turns the SDK's own trace spans into OpenTelemetry spans with
 * the GenAI attributes, so any OTel exporter (OTLP to the workbench's receiver, Phoenix,
 * Langfuse…) carries them. The SDK keeps its own trace format and sends it only to
 * OpenAI's traces API; this is the piece in between. Nothing of the workbench is imported:
 * users copy this file, or import it, and register it with
 * `addTraceProcessor(new OpenAIAgentsOtelProcessor(provider.getTracer('openai-agents')))`.
 *
 * Spans are started and ended when the SDK starts and ends its own (so the times have
 * the OTel clock's precision, not the SDK's milliseconds). What maps: the trace → a root
 * span; `agent` → `invoke_agent NAME`; `generation` (Chat Completions models) → `chat
 * MODEL` with usage tokens, finish reason and the reply as `gen_ai.output.messages`;
 * `response` (Responses models) → `chat MODEL` from the response object the SDK hands
 * along; `function` → `execute_tool NAME` with arguments and result. Other span types keep
 * their SDK type in `openai_agents.span.type`. Replies, arguments and results are only in
 * the SDK's spans when it traces data (its default; `OPENAI_AGENTS_DONT_LOG_MODEL_DATA`
 * turns it off): without them a model call keeps its model, not its reply.
 */
import {
  context as otelContext,
  SpanKind,
  SpanStatusCode,
  trace as otelTrace,
  type AttributeValue,
  type Span as OtelSpan,
  type Tracer,
} from '@opentelemetry/api';
import type { Span as AgentsSpan, Trace as AgentsTrace, TracingProcessor } from '@openai/agents';

type Attributes = Record<string, AttributeValue>;
// the SDK types its span data loosely (`Span<any>`); each field read here is checked
type AnySpan = AgentsSpan<Parameters<TracingProcessor['onSpanEnd']>[0]['spanData']>;
type Json = Record<string, unknown>;

/** Text attributes are cut here (the cut said), so one large reply cannot swamp a request. */
const MAX_TEXT = 16 * 1024;

export class OpenAIAgentsOtelProcessor implements TracingProcessor {
  readonly #tracer: Tracer;
  readonly #traces = new Map<string, OtelSpan>();
  readonly #spans = new Map<string, OtelSpan>();

  constructor(tracer: Tracer) {
    this.#tracer = tracer;
  }

  async onTraceStart(trace: AgentsTrace): Promise<void> {
    const root = this.#tracer.startSpan(trace.name, {
      kind: SpanKind.INTERNAL,
      attributes: {
        'openai_agents.trace_id': trace.traceId,
        ...(trace.groupId ? { 'gen_ai.conversation.id': trace.groupId } : {}),
      },
    });
    this.#traces.set(trace.traceId, root);
  }

  async onTraceEnd(trace: AgentsTrace): Promise<void> {
    this.#traces.get(trace.traceId)?.end();
    this.#traces.delete(trace.traceId);
  }

  async onSpanStart(span: AnySpan): Promise<void> {
    const parent =
      (span.parentId ? this.#spans.get(span.parentId) : undefined) ??
      this.#traces.get(span.traceId);
    const ctx = parent ? otelTrace.setSpan(otelContext.active(), parent) : otelContext.active();
    const data = span.spanData;
    const model = data.type === 'generation' ? { kind: SpanKind.CLIENT } : {};
    const otel = this.#tracer.startSpan(`openai_agents.${data.type}`, model, ctx);
    this.#spans.set(span.spanId, otel);
  }

  async onSpanEnd(span: AnySpan): Promise<void> {
    const otel = this.#spans.get(span.spanId);
    if (!otel) return;
    this.#spans.delete(span.spanId);
    const { name, attributes } = describe(span.spanData as Json & { type: string });
    otel.updateName(name);
    otel.setAttributes({ 'openai_agents.span.type': span.spanData.type, ...attributes });
    if (span.error) {
      otel.setStatus({ code: SpanStatusCode.ERROR, message: span.error.message });
      otel.setAttribute('error.type', 'openai_agents_error');
    }
    otel.end();
  }

  async shutdown(): Promise<void> {
    for (const otel of [...this.#spans.values(), ...this.#traces.values()]) otel.end();
    this.#spans.clear();
    this.#traces.clear();
  }

  async forceFlush(): Promise<void> {
    // spans are handed to the tracer as they end; flushing is the OTel provider's job
  }
}

/** The OTel name and attributes of one SDK span, from its final data. */
function describe(data: Json & { type: string }): { name: string; attributes: Attributes } {
  switch (data.type) {
    case 'agent': {
      const name = text(data['name']) ?? 'agent';
      return {
        name: `invoke_agent ${name}`,
        attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': name },
      };
    }
    case 'function': {
      const name = text(data['name']) ?? 'tool';
      return {
        name: `execute_tool ${name}`,
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': name,
          ...optional('gen_ai.tool.call.arguments', capped(data['input'])),
          ...optional('gen_ai.tool.call.result', capped(data['output'])),
        },
      };
    }
    case 'generation': {
      // Chat Completions: output = [the chat.completion object], usage there or on the span
      const completion = (Array.isArray(data['output']) ? data['output'][0] : undefined) as
        Json | undefined;
      const usage = (data['usage'] ?? completion?.['usage']) as Json | undefined;
      const choice = (Array.isArray(completion?.['choices']) ? completion['choices'][0] : {}) as
        Json | undefined;
      const message = (choice?.['message'] ?? {}) as Json;
      const calls = Array.isArray(message['tool_calls']) ? (message['tool_calls'] as Json[]) : [];
      const parts = [
        ...(text(message['content']) ? [{ type: 'text', content: message['content'] }] : []),
        ...calls.map((c) => {
          const fn = (c['function'] ?? {}) as Json;
          return { type: 'tool_call', id: c['id'], name: fn['name'], arguments: fn['arguments'] };
        }),
      ];
      return modelCall(
        text(data['model']) ?? text(completion?.['model']),
        text(completion?.['model']),
        num(usage?.['input_tokens']) ?? num(usage?.['prompt_tokens']),
        num(usage?.['output_tokens']) ?? num(usage?.['completion_tokens']),
        text(choice?.['finish_reason']),
        completion ? parts : undefined,
      );
    }
    case 'response': {
      // Responses: `_response` is the response object (output items, usage)
      const response = (data['_response'] ?? {}) as Json;
      const usage = (response['usage'] ?? {}) as Json;
      const items = Array.isArray(response['output']) ? (response['output'] as Json[]) : [];
      const parts = items.flatMap((item): Json[] => {
        if (item['type'] === 'function_call') {
          const id = item['call_id'] ?? item['id'];
          return [{ type: 'tool_call', id, name: item['name'], arguments: item['arguments'] }];
        }
        if (item['type'] !== 'message' || !Array.isArray(item['content'])) return [];
        return (item['content'] as Json[]).flatMap((c): Json[] =>
          c['type'] === 'output_text' ? [{ type: 'text', content: c['text'] }] : [],
        );
      });
      const calls = parts.some((p) => p['type'] === 'tool_call');
      return modelCall(
        text(response['model']),
        text(response['model']),
        num(usage['input_tokens']),
        num(usage['output_tokens']),
        items.length > 0 ? (calls ? 'tool_calls' : 'stop') : undefined,
        items.length > 0 ? parts : undefined,
      );
    }
    default:
      return { name: text(data['name']) ?? `openai_agents.${data.type}`, attributes: {} };
  }
}

function modelCall(
  requestModel: string | undefined,
  responseModel: string | undefined,
  input: number | undefined,
  output: number | undefined,
  finish: string | undefined,
  parts: unknown[] | undefined,
): { name: string; attributes: Attributes } {
  const messages = parts && [
    { role: 'assistant', parts, ...(finish ? { finish_reason: finish } : {}) },
  ];
  return {
    name: `chat ${requestModel ?? 'model'}`,
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      ...optional('gen_ai.request.model', requestModel),
      ...optional('gen_ai.response.model', responseModel),
      ...optional('gen_ai.usage.input_tokens', input),
      ...optional('gen_ai.usage.output_tokens', output),
      ...(finish ? { 'gen_ai.response.finish_reasons': [finish] } : {}),
      ...optional('gen_ai.output.messages', messages && capped(JSON.stringify(messages))),
    },
  };
}

function optional(key: string, value: AttributeValue | undefined): Attributes {
  return value === undefined ? {} : { [key]: value };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function capped(value: unknown): string | undefined {
  const s =
    typeof value === 'string' ? value : value === undefined ? undefined : JSON.stringify(value);
  if (s === undefined || s.length <= MAX_TEXT) return s;
  return `${s.slice(0, MAX_TEXT)}… [cut: ${s.length - MAX_TEXT} more characters]`;
}
