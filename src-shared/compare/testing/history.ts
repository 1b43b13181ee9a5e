/**
 * Constructed run histories for the comparison tests: the event order the runtime emits
 * for a ToolCallAgent step (step.started, the step prompt, llm.requested/responded, the
 * assistant message, each call's tool.started / tool.finished / tool message,
 * step.finished), with ids and times that differ per run as real ones do.
 */
import {
  createEventStamper,
  type RunEvent,
  type RunEventPayload,
  type RunSettings,
} from '../../events';
import type { RunOutcome } from '../../domain/agent';

export interface CallSpec {
  name: string;
  args?: unknown;
  output?: string;
  error?: string;
}

export interface StepSpec {
  reply?: string;
  calls?: CallSpec[];
  prompt?: string;
  stuck?: 'content' | 'tool_calls';
  tokens?: { prompt: number; completion: number };
  latencyMs?: number;
}

export interface HistoryOptions {
  task?: string;
  agent?: string;
  model?: string;
  outcome?: RunOutcome;
  /** no run.finished (an interrupted or live run) */
  isUnfinished?: boolean;
  settings?: RunSettings;
  startTs?: number;
  /** extra fields on run.started (e.g. a fork's `forkOf`) */
  startExtras?: Record<string, unknown>;
  /** the number of the first step (a fork continues its parent's count) */
  firstStep?: number;
}

/** A plain step: a reply and one bash call whose output names the step. */
export function plainStep(n: number): StepSpec {
  return {
    reply: `Step ${n}: I list the files of module ${n}.`,
    calls: [{ name: 'bash', args: { command: `ls module_${n}` }, output: `file_${n}.py` }],
  };
}

export function history(
  runId: string,
  steps: StepSpec[],
  options: HistoryOptions = {},
): RunEvent[] {
  let clock = options.startTs ?? 1_700_000_000_000;
  const stamper = createEventStamper(runId, () => (clock += 5));
  const events: RunEvent[] = [];
  const emit = (payload: RunEventPayload) => events.push(stamper.stamp(payload));
  const agent = options.agent ?? 'manus';
  const model = options.model ?? 'gpt-test';
  const task = options.task ?? 'Fix the failing test';
  let index = 0;
  const memory = (message: Extract<RunEventPayload, { type: 'memory.appended' }>['message']) =>
    emit({ type: 'memory.appended', agent, index: index++, message });

  emit({
    type: 'run.started',
    agent,
    task,
    maxSteps: 20,
    model,
    sessionId: `s-${runId}`,
    ...(options.settings ? { settings: options.settings } : {}),
    ...options.startExtras,
  } as RunEventPayload);
  emit({ type: 'state.changed', agent, from: 'IDLE', to: 'RUNNING' });
  memory({ role: 'user', content: task });
  let usage = { prompt: 0, completion: 0 };
  const firstStep = options.firstStep ?? 1;
  steps.forEach((spec, i) => {
    const step = firstStep + i;
    emit({ type: 'step.started', agent, step, maxSteps: 20 });
    if (spec.prompt) memory({ role: 'user', content: spec.prompt });
    emit({ type: 'llm.requested', agent, step, model, messageCount: index, inputTokens: 10 });
    const calls = (spec.calls ?? []).map((c, k) => ({
      id: `${runId}-call-${step}-${k}`,
      type: 'function' as const,
      function: { name: c.name, arguments: JSON.stringify(c.args ?? {}) },
    }));
    const tokens = spec.tokens ?? { prompt: 100 * step, completion: 20 };
    usage = {
      prompt: usage.prompt + tokens.prompt,
      completion: usage.completion + tokens.completion,
    };
    emit({
      type: 'llm.responded',
      agent,
      step,
      model,
      content: spec.reply ?? null,
      toolCalls: calls,
      usage: tokens,
      durationMs: spec.latencyMs ?? 40,
      finishReason: calls.length > 0 ? 'tool_calls' : 'stop',
    });
    memory({ role: 'assistant', content: spec.reply ?? null, tool_calls: calls });
    if (spec.stuck) {
      emit({ type: 'stuck.detected', agent, step, kind: spec.stuck, count: 2, duplicateOf: [1] });
    }
    (spec.calls ?? []).forEach((c, k) => {
      const id = calls[k]!.id;
      emit({ type: 'tool.started', agent, step, toolCallId: id, name: c.name, args: c.args ?? {} });
      const ok = c.error === undefined;
      emit({
        type: 'tool.finished',
        agent,
        step,
        toolCallId: id,
        name: c.name,
        ok,
        output: c.output ?? '',
        ...(ok ? {} : { error: c.error }),
        durationMs: 7,
      });
      memory({ role: 'tool', content: c.output ?? '', tool_call_id: id, name: c.name });
    });
    emit({ type: 'step.finished', agent, step, durationMs: 50 });
  });
  if (!options.isUnfinished) {
    const outcome = options.outcome ?? 'finished';
    emit({
      type: 'run.finished',
      outcome,
      state: outcome === 'error' ? 'ERROR' : 'FINISHED',
      steps: firstStep - 1 + steps.length,
      usage,
    });
  }
  return events;
}
