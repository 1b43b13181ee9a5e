/**
 * GenAI spans from another tool, as a read-only run of the history (docs/telemetry.md):
 * one trace is one run. Model calls and tool calls are recognised by the OpenTelemetry
 * GenAI conventions (`gen_ai.operation.name`, `gen_ai.usage.*`, `gen_ai.tool.*`), by
 * OpenInference's (`openinference.span.kind`, `llm.*`, `tool.*`: Arize Phoenix) and by
 * OpenLLMetry's (`traceloop.span.kind`, `gen_ai.prompt.N` / `gen_ai.completion.N`). Each
 * model call starts a step and the tool calls after it belong to that step, unless the
 * spans number their steps (`workbench.step`: the workbench's own export, so an export
 * imported again has the same steps). Duplicates and stuck are judged by the same rules
 * as a live run (`DuplicateLedger`, `detectStuck` with the default threshold).
 */
import type { RunEvent, RunEventPayload } from '@shared/events';
import type { ToolCall } from '@shared/domain/message';
import { DuplicateLedger } from '@shared/duplicate-keys';
import { detectStuck } from '../loop/stuck-detector';
import type { MemoryEntry } from '../loop/memory';
import { nsToMs, STATUS_CODE, type Attributes, type ResourceSpans, type Span } from './otlp-model';

const DUPLICATE_THRESHOLD = 2;

export interface ReceivedSpan extends Span {
  resource: Attributes;
}

/** The spans of every trace in a request, by trace id. */
export function spansByTrace(batches: readonly ResourceSpans[]): Map<string, ReceivedSpan[]> {
  const traces = new Map<string, ReceivedSpan[]>();
  for (const batch of batches) {
    for (const scope of batch.scopes) {
      for (const span of scope.spans) {
        const list = traces.get(span.traceId) ?? [];
        list.push({ ...span, resource: batch.resource });
        traces.set(span.traceId, list);
      }
    }
  }
  return traces;
}

type Kind = 'model' | 'tool' | 'agent' | 'other';

function str(a: Attributes, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const v = a[key];
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

function num(a: Attributes, ...keys: string[]): number | undefined {
  for (const key of keys) {
    const v = a[key];
    if (typeof v === 'number') return v;
    if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  }
  return undefined;
}

export function kindOf(span: Span): Kind {
  const a = span.attributes;
  const operation = str(a, 'gen_ai.operation.name');
  const inference = str(a, 'openinference.span.kind')?.toUpperCase();
  const traceloop = str(a, 'traceloop.span.kind');
  if (operation === 'execute_tool' || inference === 'TOOL' || traceloop === 'tool') return 'tool';
  if (operation === 'invoke_agent' || operation === 'create_agent' || inference === 'AGENT') {
    return 'agent';
  }
  if (
    operation === 'chat' ||
    operation === 'text_completion' ||
    operation === 'generate_content' ||
    operation === 'responses' ||
    inference === 'LLM' ||
    str(a, 'llm.request.type') !== undefined ||
    (num(a, 'gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens') !== undefined &&
      str(a, 'gen_ai.request.model', 'gen_ai.response.model') !== undefined)
  ) {
    return 'model';
  }
  return traceloop === 'agent' || traceloop === 'workflow' ? 'agent' : 'other';
}

/** What the model replied: text and tool calls, from whichever convention the span uses. */
function replyOf(span: Span): { content: string | null; toolCalls: ToolCall[]; finish: string } {
  const a = span.attributes;
  const toolCalls: ToolCall[] = [];
  let content: string | null = null;
  let finish = '';
  const reasons = a['gen_ai.response.finish_reasons'];
  if (Array.isArray(reasons) && typeof reasons[0] === 'string') finish = reasons[0];
  const output = str(a, 'gen_ai.output.messages');
  if (output) {
    try {
      const messages = JSON.parse(output) as {
        parts?: {
          type: string;
          content?: string;
          id?: string;
          name?: string;
          arguments?: unknown;
        }[];
        finish_reason?: string;
      }[];
      for (const m of messages) {
        for (const part of m.parts ?? []) {
          if (part.type === 'text' && part.content) content = (content ?? '') + part.content;
          if (part.type === 'tool_call' && part.name) {
            toolCalls.push(call(part.id, part.name, part.arguments, toolCalls.length));
          }
        }
        if (!finish && m.finish_reason) finish = m.finish_reason;
      }
    } catch {
      // a capped or foreign value: the text as it is
      content = output;
    }
  }
  // OpenInference: llm.output_messages.N.message.{content,tool_calls.M.tool_call.function.*}
  content ??= str(a, 'llm.output_messages.0.message.content') ?? null;
  for (let m = 0; toolCalls.length === m; m++) {
    const prefix = `llm.output_messages.0.message.tool_calls.${m}.tool_call`;
    const name = str(a, `${prefix}.function.name`);
    if (!name) break;
    toolCalls.push(call(str(a, `${prefix}.id`), name, str(a, `${prefix}.function.arguments`), m));
  }
  // OpenLLMetry: gen_ai.completion.N.{content,finish_reason,tool_calls.M.{name,arguments,id}}
  content ??= str(a, 'gen_ai.completion.0.content') ?? null;
  finish ||= str(a, 'gen_ai.completion.0.finish_reason') ?? '';
  for (let m = 0; toolCalls.length === m; m++) {
    const prefix = `gen_ai.completion.0.tool_calls.${m}`;
    const name = str(a, `${prefix}.name`);
    if (!name) break;
    toolCalls.push(call(str(a, `${prefix}.id`), name, str(a, `${prefix}.arguments`), m));
  }
  return { content, toolCalls, finish: finish || (toolCalls.length > 0 ? 'tool_calls' : 'stop') };
}

function call(id: string | undefined, name: string, args: unknown, i: number): ToolCall {
  return {
    id: id ?? `call_${i}`,
    type: 'function',
    function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) },
  };
}

function parseArgs(raw: string | undefined): unknown {
  if (raw === undefined) return {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

interface Step {
  key: string;
  model?: ReceivedSpan;
  tools: ReceivedSpan[];
  start: bigint;
  end: bigint;
  stuck: { kind: 'content' | 'tool_calls'; count: number }[];
}

/** The run a trace makes; `runId` names it. Spans may come in any order. */
export function traceToRunEvents(runId: string, spans: readonly ReceivedSpan[]): RunEvent[] {
  const sorted = [...spans].sort((x, y) =>
    x.startNs < y.startNs ? -1 : x.startNs > y.startNs ? 1 : 0,
  );
  const agentSpan =
    sorted.find((s) => kindOf(s) === 'agent' && !s.parentSpanId) ??
    sorted.find((s) => kindOf(s) === 'agent');
  const root = sorted.find((s) => !s.parentSpanId) ?? sorted[0]!;
  const resource = root.resource;
  const agent =
    str(agentSpan?.attributes ?? {}, 'gen_ai.agent.name') ??
    (agentSpan ? agentSpan.name.replace(/^invoke_agent /, '') : undefined) ??
    str(resource, 'service.name') ??
    'otel';
  const steps = groupSteps(sorted);
  const models = steps.flatMap((s) => (s.model ? [s.model] : []));
  const firstModel = models[0];
  const modelName =
    str(
      firstModel?.attributes ?? {},
      'gen_ai.request.model',
      'gen_ai.response.model',
      'llm.model_name',
    ) ??
    str(agentSpan?.attributes ?? {}, 'gen_ai.request.model') ??
    'unknown';
  const task =
    str(agentSpan?.attributes ?? {}, 'workbench.run.task', 'input.value') ??
    str(root.attributes, 'workbench.run.task', 'input.value') ??
    `${root.name} (OpenTelemetry trace ${root.traceId})`;

  const payloads: { ts: number; payload: RunEventPayload }[] = [];
  const at = (ns: bigint, payload: RunEventPayload) => payloads.push({ ts: nsToMs(ns), payload });
  at(root.startNs, {
    type: 'run.started',
    agent,
    task,
    maxSteps: Math.max(
      steps.length,
      num(agentSpan?.attributes ?? {}, 'workbench.run.max_steps') ?? 0,
    ),
    model: modelName,
    sessionId: 'otel',
    settings: {
      'otel.trace_id': root.traceId,
      ...(str(resource, 'service.name')
        ? { 'otel.service.name': str(resource, 'service.name')! }
        : {}),
    },
  });
  const ledger = new DuplicateLedger();
  const memory: MemoryEntry[] = [];
  let index = 0;
  const usage = { prompt: 0, completion: 0 };
  steps.forEach((step, i) => {
    const n = i + 1;
    at(step.start, { type: 'step.started', agent, step: n, maxSteps: steps.length });
    if (step.model) {
      const m = step.model;
      const a = m.attributes;
      const prompt =
        num(
          a,
          'gen_ai.usage.input_tokens',
          'gen_ai.usage.prompt_tokens',
          'llm.token_count.prompt',
          'llm.usage.prompt_tokens',
        ) ?? 0;
      const completion =
        num(
          a,
          'gen_ai.usage.output_tokens',
          'gen_ai.usage.completion_tokens',
          'llm.token_count.completion',
          'llm.usage.completion_tokens',
        ) ?? 0;
      usage.prompt += prompt;
      usage.completion += completion;
      const model =
        str(a, 'gen_ai.request.model', 'gen_ai.response.model', 'llm.model_name') ?? modelName;
      const reply = replyOf(m);
      at(m.startNs, {
        type: 'llm.requested',
        agent,
        step: n,
        model,
        messageCount: 0,
        inputTokens: prompt,
      });
      at(m.endNs, {
        type: 'llm.responded',
        agent,
        step: n,
        model: str(a, 'gen_ai.response.model') ?? model,
        content: reply.content,
        toolCalls: reply.toolCalls,
        usage: { prompt, completion },
        durationMs: nsToMs(m.endNs - m.startNs),
        finishReason: reply.finish,
        usageSource: 'provider',
      });
      const message = {
        role: 'assistant' as const,
        content: reply.content,
        ...(reply.toolCalls.length > 0 ? { tool_calls: reply.toolCalls } : {}),
      };
      const duplicate = ledger.classify(agent, message);
      const entry: MemoryEntry = { index: index++, message, followsTurn: false };
      memory.push(entry);
      at(m.endNs, {
        type: 'memory.appended',
        agent,
        index: entry.index,
        message,
        ...(duplicate ? { duplicate } : {}),
      });
      for (const hit of detectStuck(memory, entry.index, DUPLICATE_THRESHOLD)) {
        at(m.endNs, { type: 'stuck.detected', agent, step: n, ...hit });
      }
    }
    for (const t of step.tools) {
      const a = t.attributes;
      const name =
        str(a, 'gen_ai.tool.name', 'tool.name', 'traceloop.entity.name') ??
        t.name.replace(/^execute_tool /, '');
      const id = str(a, 'gen_ai.tool.call.id', 'tool_call.id') ?? `tool_${t.spanId}`;
      const failed = t.status?.code === STATUS_CODE.error || a['workbench.tool.ok'] === false;
      const result =
        str(a, 'gen_ai.tool.call.result', 'output.value', 'traceloop.entity.output') ?? '';
      at(t.startNs, {
        type: 'tool.started',
        agent,
        step: n,
        toolCallId: id,
        name,
        args: parseArgs(
          str(
            a,
            'gen_ai.tool.call.arguments',
            'tool.parameters',
            'input.value',
            'traceloop.entity.input',
          ),
        ),
      });
      const exitCode = num(a, 'workbench.tool.exit_code');
      const isExitFailure = a['error.type'] === 'exit_code';
      at(t.endNs, {
        type: 'tool.finished',
        agent,
        step: n,
        toolCallId: id,
        name,
        ok: !failed,
        output: failed && !isExitFailure ? '' : result,
        ...(failed && !isExitFailure ? { error: result || t.status?.message || 'failed' } : {}),
        ...(exitCode !== undefined ? { exitCode } : {}),
        durationMs: nsToMs(t.endNs - t.startNs),
      });
    }
    at(step.end, {
      type: 'step.finished',
      agent,
      step: n,
      durationMs: nsToMs(step.end - step.start),
    });
  });
  const end = sorted.reduce((max, s) => (s.endNs > max ? s.endNs : max), root.endNs);
  const runFailed = (agentSpan ?? root).status?.code === STATUS_CODE.error;
  at(end, {
    type: 'run.finished',
    outcome: runFailed ? 'error' : 'finished',
    state: runFailed ? 'ERROR' : 'FINISHED',
    steps: steps.length,
    usage,
    ...(runFailed ? { error: (agentSpan ?? root).status?.message || 'the traced run failed' } : {}),
  });
  // events in time order (stable: a step's own order kept), then numbered
  const ordered = payloads.map((p, i) => ({ ...p, i })).sort((x, y) => x.ts - y.ts || x.i - y.i);
  // run.started first and run.finished last, whatever the clocks said
  return ordered.map((p, i) => ({
    ...(p.payload as object),
    v: 1,
    runId,
    seq: i + 1,
    ts: p.ts,
  })) as unknown as RunEvent[];
}

function groupSteps(sorted: readonly ReceivedSpan[]): Step[] {
  const numbered = sorted.some((s) => num(s.attributes, 'workbench.step') !== undefined);
  const steps: Step[] = [];
  const byKey = new Map<string, Step>();
  const stepFor = (key: string, span: ReceivedSpan): Step => {
    let step = byKey.get(key);
    if (!step) {
      step = { key, tools: [], start: span.startNs, end: span.endNs, stuck: [] };
      byKey.set(key, step);
      steps.push(step);
    }
    if (span.startNs < step.start) step.start = span.startNs;
    if (span.endNs > step.end) step.end = span.endNs;
    return step;
  };
  let current: Step | undefined;
  for (const span of sorted) {
    const kind = kindOf(span);
    if (numbered) {
      const n = num(span.attributes, 'workbench.step');
      if (n === undefined) continue;
      const step = stepFor(`${str(span.attributes, 'gen_ai.agent.name') ?? ''}:${n}`, span);
      if (kind === 'model') step.model ??= span;
      else if (kind === 'tool') step.tools.push(span);
      continue;
    }
    if (kind === 'model') {
      current = stepFor(span.spanId, span);
      current.model = span;
    } else if (kind === 'tool') {
      current ??= stepFor(span.spanId, span);
      current.tools.push(span);
      if (span.endNs > current.end) current.end = span.endNs;
    }
  }
  return steps;
}
