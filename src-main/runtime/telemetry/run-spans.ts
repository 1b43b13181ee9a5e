/**
 * A run as OpenTelemetry spans, by the GenAI semantic conventions (docs/telemetry.md):
 *
 *   invoke_agent AGENT           the run (gen_ai.operation.name invoke_agent)
 *   └ step N                     each step (workbench.step; duplicate/stuck verdicts)
 *     ├ chat MODEL               each model call (gen_ai.request.model, usage, finish reasons)
 *     └ execute_tool NAME        each tool call (arguments and result capped)
 *
 * Fed one event at a time, it hands back each span when it ends, so the live exporter
 * sends steps while the run goes on; `flush` ends what is still open (a run read from the
 * history that was interrupted). Ids are derived from the run id, so exporting a run again
 * gives the same trace and spans (a backend sees the same spans, not a copy).
 */
import { createHash } from 'node:crypto';
import type { RunEvent } from '@shared/events';
import { msToNs, SPAN_KIND, STATUS_CODE, type Attributes, type Span } from './otlp-model';

/** Tool arguments and results, model text: what one attribute may carry. */
export const ATTRIBUTE_CAP = 4_096;

export function traceIdOf(runId: string): string {
  return createHash('sha256').update(`trace:${runId}`).digest('hex').slice(0, 32);
}

/**
 * A span's id: two 32-bit FNV-1a hashes of the run and the span's key (a sha256 per span
 * cost more than the rest of a step's export work). Collisions within one trace are as
 * unlikely as for random 64-bit ids; the same key always gives the same id.
 */
function spanIdOf(runId: string, key: string): string {
  const text = `${runId}:${key}`;
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
  const id = hex(a) + hex(b);
  return id === '0000000000000000' ? '0000000000000001' : id;
}

export function capText(value: string, cap = ATTRIBUTE_CAP): string {
  if (value.length <= cap) return value;
  return `${value.slice(0, cap)}… [${value.length - cap} more characters cut]`;
}

function json(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? null);
}

interface Open {
  span: Span;
}

export class RunSpanBuilder {
  private readonly traceId: string;
  private run: Open | null = null;
  private readonly steps = new Map<string, Open>();
  private readonly models = new Map<string, Open>();
  private readonly tools = new Map<string, Open>();
  private modelCalls = 0;
  private system = 'openai';
  private lastMs = 0;

  constructor(private readonly runId: string) {
    this.traceId = traceIdOf(runId);
  }

  /** The spans `event` ended (none for most events). */
  add(event: RunEvent): Span[] {
    this.lastMs = event.ts;
    switch (event.type) {
      case 'run.started': {
        const apiType = event.settings?.['llm.api_type'];
        if (typeof apiType === 'string' && apiType !== '') this.system = apiType;
        this.run = this.open('run', `invoke_agent ${event.agent}`, undefined, event.ts, {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.agent.name': event.agent,
          'gen_ai.conversation.id': this.runId,
          'gen_ai.request.model': event.model,
          'workbench.run.id': this.runId,
          'workbench.run.task': capText(event.task),
          'workbench.run.max_steps': event.maxSteps,
          ...(event.forkOf ? { 'workbench.run.fork_of': event.forkOf.runId } : {}),
        });
        return [];
      }
      case 'step.started': {
        const key = `${event.agent}:${event.step}`;
        this.steps.set(
          key,
          this.open(`step:${key}`, `step ${event.step}`, this.run, event.ts, {
            'gen_ai.agent.name': event.agent,
            'workbench.step': event.step,
          }),
        );
        return [];
      }
      case 'llm.requested': {
        const key = `${event.agent}:${event.step}`;
        const parent = this.steps.get(key) ?? this.run;
        const call = this.open(
          `llm:${key}:${this.modelCalls++}`,
          `chat ${event.model}`,
          parent,
          event.ts,
          {
            'gen_ai.operation.name': 'chat',
            'gen_ai.system': this.system,
            'gen_ai.provider.name': this.system,
            'gen_ai.request.model': event.model,
            'gen_ai.agent.name': event.agent,
            'workbench.step': event.step,
            ...(event.params?.max_tokens !== undefined
              ? { 'gen_ai.request.max_tokens': event.params.max_tokens }
              : {}),
            ...(event.params?.max_completion_tokens !== undefined
              ? { 'gen_ai.request.max_tokens': event.params.max_completion_tokens }
              : {}),
            ...(event.params?.temperature !== undefined
              ? { 'gen_ai.request.temperature': event.params.temperature }
              : {}),
            ...(event.sampledBy ? { 'workbench.sampled_by': event.sampledBy } : {}),
          },
        );
        call.span.kind = SPAN_KIND.client;
        this.models.set(key, call);
        return [];
      }
      case 'llm.responded': {
        const key = `${event.agent}:${event.step}`;
        const call = this.models.get(key);
        if (!call) return [];
        this.models.delete(key);
        Object.assign(call.span.attributes, {
          'gen_ai.response.model': event.model,
          'gen_ai.usage.input_tokens': event.usage.prompt,
          'gen_ai.usage.output_tokens': event.usage.completion,
          'gen_ai.response.finish_reasons': [event.finishReason],
          'gen_ai.output.messages': capText(
            JSON.stringify([
              {
                role: 'assistant',
                parts: [
                  ...(event.content ? [{ type: 'text', content: event.content }] : []),
                  ...event.toolCalls.map((c) => ({
                    type: 'tool_call',
                    id: c.id,
                    name: c.function.name,
                    arguments: c.function.arguments,
                  })),
                ],
                finish_reason: event.finishReason,
              },
            ]),
            ATTRIBUTE_CAP * 4,
          ),
        } satisfies Attributes);
        return [this.close(call, event.ts)];
      }
      case 'tool.started': {
        const key = `${event.agent}:${event.step}`;
        const parent = this.steps.get(key) ?? this.run;
        this.tools.set(
          event.toolCallId,
          this.open(
            `tool:${event.toolCallId}:${key}`,
            `execute_tool ${event.name}`,
            parent,
            event.ts,
            {
              'gen_ai.operation.name': 'execute_tool',
              'gen_ai.tool.name': event.name,
              'gen_ai.tool.call.id': event.toolCallId,
              'gen_ai.tool.call.arguments': capText(json(event.args)),
              'gen_ai.agent.name': event.agent,
              'workbench.step': event.step,
            },
          ),
        );
        return [];
      }
      case 'tool.finished': {
        const call = this.tools.get(event.toolCallId);
        if (!call) return [];
        this.tools.delete(event.toolCallId);
        const a = call.span.attributes;
        a['gen_ai.tool.call.result'] = capText(event.error ?? event.output);
        a['workbench.tool.ok'] = event.ok;
        if (event.exitCode !== undefined) a['workbench.tool.exit_code'] = event.exitCode;
        if (event.skipped) a['workbench.tool.skipped'] = true;
        if (!event.ok) {
          call.span.status = {
            code: STATUS_CODE.error,
            message: capText(event.error ?? `exit code ${event.exitCode ?? '?'}`, 512),
          };
          a['error.type'] = event.error !== undefined ? 'tool_error' : 'exit_code';
        }
        return [this.close(call, event.ts)];
      }
      case 'memory.appended': {
        if (event.duplicate === undefined) return [];
        // The reply is a repeat (the run manager's verdict): on its step.
        const step = this.latestStep(event.agent);
        if (step) step.span.attributes['workbench.duplicate'] = event.duplicate;
        return [];
      }
      case 'stuck.detected': {
        const step = this.steps.get(`${event.agent}:${event.step}`) ?? this.run;
        if (!step) return [];
        step.span.attributes['workbench.stuck'] = true;
        step.span.events.push({
          timeNs: msToNs(event.ts),
          name: 'workbench.stuck',
          attributes: { 'workbench.stuck.kind': event.kind, 'workbench.stuck.count': event.count },
        });
        return [];
      }
      case 'step.finished': {
        const key = `${event.agent}:${event.step}`;
        const step = this.steps.get(key);
        if (!step) return [];
        this.steps.delete(key);
        // a model call that never answered (it failed) ends with its step
        const ended: Span[] = [];
        const call = this.models.get(key);
        if (call) {
          this.models.delete(key);
          call.span.status = { code: STATUS_CODE.error, message: 'the model call failed' };
          ended.push(this.close(call, event.ts));
        }
        ended.push(this.close(step, event.ts));
        return ended;
      }
      case 'run.finished': {
        const ended = this.flush(event.ts);
        if (this.run) {
          const a = this.run.span.attributes;
          a['workbench.run.outcome'] = event.outcome;
          a['workbench.run.steps'] = event.steps;
          a['gen_ai.usage.input_tokens'] = event.usage.prompt;
          a['gen_ai.usage.output_tokens'] = event.usage.completion;
          if (event.terminateStatus) a['workbench.run.terminate_status'] = event.terminateStatus;
          if (event.outcome === 'error') {
            this.run.span.status = {
              code: STATUS_CODE.error,
              message: capText(event.error ?? 'error', 512),
            };
            a['error.type'] = 'run_error';
          }
          ended.push(this.close(this.run, event.ts));
          this.run = null;
        }
        return ended;
      }
      default:
        return [];
    }
  }

  /**
   * Ends every span still open at `atMs` (default: the last event's time), the run span
   * last; for a run that never finished (interrupted) the run span says so.
   */
  flush(atMs = this.lastMs): Span[] {
    const ended: Span[] = [];
    for (const map of [this.tools, this.models, this.steps]) {
      for (const open of map.values()) {
        open.span.status ??= { code: STATUS_CODE.error, message: 'not finished' };
        ended.push(this.close(open, atMs));
      }
      map.clear();
    }
    return ended;
  }

  /** After `flush`: the run span of a run that did not finish, ended now. */
  closeUnfinishedRun(): Span[] {
    if (!this.run) return [];
    this.run.span.attributes['workbench.run.outcome'] = 'interrupted';
    const span = this.close(this.run, this.lastMs);
    this.run = null;
    return [span];
  }

  private latestStep(agent: string): Open | undefined {
    let latest: Open | undefined;
    for (const [key, open] of this.steps) if (key.startsWith(`${agent}:`)) latest = open;
    return latest;
  }

  private open(
    key: string,
    name: string,
    parent: Open | null | undefined,
    ms: number,
    attributes: Attributes,
  ): Open {
    return {
      span: {
        traceId: this.traceId,
        spanId: spanIdOf(this.runId, key),
        ...(parent ? { parentSpanId: parent.span.spanId } : {}),
        name,
        kind: SPAN_KIND.internal,
        startNs: msToNs(ms),
        endNs: msToNs(ms),
        attributes,
        events: [],
      },
    };
  }

  private close(open: Open, ms: number): Span {
    open.span.endNs = msToNs(Math.max(ms, Number(open.span.startNs / 1_000_000n)));
    return open.span;
  }
}

/** A whole run from its history: every span, the run span included. */
export function runToSpans(runId: string, events: readonly RunEvent[]): Span[] {
  const builder = new RunSpanBuilder(runId);
  const spans: Span[] = [];
  for (const event of events) spans.push(...builder.add(event));
  spans.push(...builder.flush(), ...builder.closeUnfinishedRun());
  return spans;
}

/** The resource every exported run is under. */
export function workbenchResource(): Attributes {
  return {
    'service.name': 'agent-workbench',
    'telemetry.sdk.name': 'agent-workbench',
    'telemetry.sdk.language': 'nodejs',
  };
}
