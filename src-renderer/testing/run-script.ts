/**
 * Builds realistic RunEvent streams for tests and the UI benchmark: the same event order
 * the runtime emits for a ToolCallAgent step (step.started, the optional next-step
 * prompt, llm.requested, deltas, llm.responded, the assistant message, each tool call's
 * started/finished and tool message, step.finished). Pure data, no DOM.
 */
import type { RunOutcome } from '@shared/domain/agent';
import type { ToolCall } from '@shared/domain/message';
import {
  createEventStamper,
  type EventImage,
  type RunEvent,
  type RunEventPayload,
} from '@shared/events';

/** how a reply repeats an earlier one (the run stamps it on the reply's `memory.appended`) */
export type DuplicateKind = NonNullable<
  Extract<RunEventPayload, { type: 'memory.appended' }>['duplicate']
>;

export interface ScriptedToolCall {
  name: string;
  args?: Record<string, unknown>;
  /** raw arguments text, for malformed-argument cases */
  rawArgs?: string;
  output?: string;
  error?: string;
  exitCode?: number;
  durationMs?: number;
  /** skipped by the user in the debugger (with `error` as what the model was told) */
  skipped?: boolean;
  /** an MCP tool's structuredContent (`tool.finished.structured`) */
  structured?: unknown;
  /** events while the call runs (an MCP server's sampling call, a form) */
  during?: RunEventPayload[];
}

export interface ScriptedStep {
  content?: string | null;
  calls?: ScriptedToolCall[];
  /** stream the content as deltas of this many characters */
  streamChunk?: number;
  /** a user message added before the model call (the next-step prompt, or a nudge) */
  prompt?: string;
  usage?: { prompt: number; completion: number };
  /** more of `llm.requested` (params, tools, toolChoice, ...: the exact request) */
  request?: Partial<Extract<RunEventPayload, { type: 'llm.requested' }>>;
  /** the model call's time (`llm.responded.durationMs`, default 40), waits included */
  modelMs?: number;
  /** how long the call queued for its profile (`llm.responded.queuedMs`) */
  queuedMs?: number;
  /** a 429 retry before the answer per entry, with this backoff (`llm.retried.delayMs`) */
  retryDelays?: number[];
  /** the reply repeats an earlier one */
  duplicate?: DuplicateKind;
}

export class RunScript {
  readonly events: RunEvent[] = [];
  private readonly stamper;
  private memoryIndex = 0;
  private step = 0;
  private callCounter = 0;
  private clock: number;

  constructor(
    readonly runId: string,
    readonly agent = 'manus',
    readonly options: { model?: string; maxSteps?: number; startTs?: number } = {},
  ) {
    this.clock = options.startTs ?? 1_700_000_000_000;
    this.stamper = createEventStamper(runId, () => (this.clock += 7));
  }

  get currentStep(): number {
    return this.step;
  }

  get nextMemoryIndex(): number {
    return this.memoryIndex;
  }

  emit(payload: RunEventPayload): RunEvent {
    const event = this.stamper.stamp(payload);
    this.events.push(event);
    return event;
  }

  start(task: string, flow?: 'planning'): this {
    this.emit({
      type: 'run.started',
      agent: this.agent,
      task,
      maxSteps: this.options.maxSteps ?? 20,
      model: this.options.model ?? 'gpt-test',
      ...(flow ? { flow } : {}),
      sessionId: 's-test',
    });
    this.emit({ type: 'state.changed', agent: this.agent, from: 'IDLE', to: 'RUNNING' });
    this.message({ role: 'user', content: task });
    return this;
  }

  message(
    message: {
      role: 'user' | 'assistant' | 'tool' | 'system';
      content: string | null;
      tool_calls?: ToolCall[];
      tool_call_id?: string;
      name?: string;
      imageMimeType?: string;
      image?: EventImage;
    },
    duplicate?: DuplicateKind,
  ): number {
    const index = this.memoryIndex++;
    this.emit({
      type: 'memory.appended',
      agent: this.agent,
      index,
      message,
      ...(duplicate ? { duplicate } : {}),
    });
    return index;
  }

  /** One full think/act step; returns the assistant message's memory index. */
  addStep(spec: ScriptedStep): number {
    this.step += 1;
    const step = this.step;
    const maxSteps = this.options.maxSteps ?? 20;
    this.emit({ type: 'step.started', agent: this.agent, step, maxSteps });
    if (spec.prompt !== undefined) this.message({ role: 'user', content: spec.prompt });
    this.emit({
      type: 'llm.requested',
      agent: this.agent,
      step,
      model: this.options.model ?? 'gpt-test',
      messageCount: this.memoryIndex,
      inputTokens: 100 * step,
      ...spec.request,
    });
    const content = spec.content === undefined ? `Thinking about step ${step}` : spec.content;
    if (spec.streamChunk && content) {
      for (let i = 0; i < content.length; i += spec.streamChunk) {
        this.emit({
          type: 'llm.delta',
          agent: this.agent,
          step,
          text: content.slice(i, i + spec.streamChunk),
        });
      }
    }
    const toolCalls: ToolCall[] = (spec.calls ?? []).map((c) => ({
      id: `call_${++this.callCounter}`,
      type: 'function',
      function: { name: c.name, arguments: c.rawArgs ?? JSON.stringify(c.args ?? {}) },
    }));
    const usage = spec.usage ?? { prompt: 100 * step, completion: 20 };
    (spec.retryDelays ?? []).forEach((delayMs, i) =>
      this.emit({
        type: 'llm.retried',
        agent: this.agent,
        step,
        attempt: i + 1,
        status: 429,
        delayMs,
        error: 'Rate limit reached',
      }),
    );
    this.emit({
      type: 'llm.responded',
      agent: this.agent,
      step,
      model: this.options.model ?? 'gpt-test',
      content,
      toolCalls,
      usage,
      durationMs: spec.modelMs ?? 40,
      finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
      ...(spec.queuedMs !== undefined ? { queuedMs: spec.queuedMs } : {}),
    });
    const assistantIndex = this.message(
      {
        role: 'assistant',
        content,
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      },
      spec.duplicate,
    );
    (spec.calls ?? []).forEach((call, i) => {
      const id = toolCalls[i]!.id;
      this.emit({
        type: 'tool.started',
        agent: this.agent,
        step,
        toolCallId: id,
        name: call.name,
        args: call.rawArgs ?? call.args ?? {},
      });
      for (const payload of call.during ?? []) this.emit(payload);
      const ok = call.error === undefined;
      const output = call.output ?? (ok ? `output of ${call.name}` : '');
      this.emit({
        type: 'tool.finished',
        agent: this.agent,
        step,
        toolCallId: id,
        name: call.name,
        ok,
        output,
        ...(call.error !== undefined ? { error: call.error } : {}),
        ...(call.exitCode !== undefined ? { exitCode: call.exitCode } : {}),
        durationMs: call.durationMs ?? 12,
        ...(call.skipped ? { skipped: true } : {}),
        ...(call.structured !== undefined ? { structured: call.structured } : {}),
      });
      this.message({
        role: 'tool',
        content: ok
          ? `Observed output of cmd \`${call.name}\`:\n${output}`
          : `Error: ${call.error}`,
        tool_call_id: id,
        name: call.name,
      });
    });
    return assistantIndex;
  }

  endStep(durationMs = 60): this {
    this.emit({ type: 'step.finished', agent: this.agent, step: this.step, durationMs });
    return this;
  }

  stuck(kind: 'content' | 'tool_calls', duplicateOf: number[]): this {
    this.emit({
      type: 'stuck.detected',
      agent: this.agent,
      step: this.step,
      kind,
      count: duplicateOf.length + 1,
      duplicateOf,
    });
    return this;
  }

  truncate(dropped: number[], window: number): this {
    this.emit({ type: 'memory.truncated', agent: this.agent, dropped, window });
    return this;
  }

  finish(outcome: RunOutcome = 'finished', error?: string): this {
    const state = outcome === 'error' ? 'ERROR' : 'FINISHED';
    this.emit({ type: 'state.changed', agent: this.agent, from: 'RUNNING', to: state });
    this.emit({
      type: 'run.finished',
      outcome,
      state,
      steps: this.step,
      usage: { prompt: 1000, completion: 200 },
      ...(error ? { error } : {}),
    });
    return this;
  }
}

/** Options of a long run: `isRich` gives every reply markdown and code (the UI bench). */
export interface LongRunOptions {
  startTs?: number;
  isRich?: boolean;
  /** every `every`th step's tool returns a screenshot kept as one of `refs` (issue 17) */
  images?: { every: number; refs: readonly EventImage[] };
}

/**
 * A long run like the benchmark's: `steps` think/act steps of one tool call each, with
 * text of realistic size (a few hundred characters per response and per tool output).
 * About 8 events per step, as the runtime emits them.
 */
export function longRun(runId: string, steps: number, options: LongRunOptions = {}): RunEvent[] {
  const events: RunEvent[] = [];
  longRunInChunks(runId, steps, options, (chunk) => events.push(...chunk));
  return events;
}

/**
 * The same run handed out in chunks of about a thousand steps, so a 100,000-step history
 * can be written without holding its 800,000 events at once.
 */
export function longRunInChunks(
  runId: string,
  steps: number,
  options: LongRunOptions,
  sink: (events: RunEvent[]) => void,
): void {
  const script = new RunScript(runId, 'manus', {
    maxSteps: steps,
    ...(options.startTs !== undefined ? { startTs: options.startTs } : {}),
  }).start('A very long task: keep refactoring the project until every test passes.');
  const filler =
    'The output shows the current state of the files, so the next step follows from it. ';
  for (let i = 1; i <= steps; i++) {
    // Every 50th response repeats an earlier one, as a stuck agent would.
    const plain =
      i % 50 === 0
        ? 'I will run the test suite again to see whether anything changed.'
        : `Step ${i}: I will run command ${i % 7} next and look at what it prints. ${filler.repeat(2)}`;
    const content = options.isRich && i % 50 !== 0 ? richReply(i, plain) : plain;
    const isPython = i % 3 === 0;
    script.addStep({
      content,
      calls: [
        {
          name: isPython ? 'python_execute' : 'bash',
          args: isPython
            ? {
                code: options.isRich
                  ? `import os\n\nfor name in sorted(os.listdir("src/module_${i % 40}")):\n    print(name, ${i} * 2)`
                  : `print(${i} * 2)`,
              }
            : { command: `ls -la src/module_${i % 40}` },
          output: `total ${i}\n${filler.repeat(1 + (i % 5))}`,
          ...(i % 25 === 0
            ? { error: `exit status 1 in step ${i}`, exitCode: 1 }
            : { exitCode: 0 }),
        },
      ],
    });
    const images = options.images;
    if (images && i % images.every === 0) {
      const image = images.refs[(i / images.every) % images.refs.length]!;
      script.message({
        role: 'user',
        content: `Image returned by the \`${isPython ? 'python_execute' : 'bash'}\` call call_${i} (${image.mimeType}).`,
        imageMimeType: image.mimeType,
        image,
      });
    }
    script.endStep();
    if (i % 1000 === 0) sink(script.events.splice(0));
  }
  script.finish('max_steps');
  sink(script.events.splice(0));
}

/** A reply with what models write: a heading, emphasis, a list, inline and fenced code. */
function richReply(i: number, plain: string): string {
  return [
    `### Step ${i}`,
    '',
    `${plain.slice(0, 120)} **Next:** run \`module_${i % 40}\` checks.`,
    '',
    `- look at *src/module_${i % 40}*`,
    '- compare with the previous listing',
    '',
    '```python',
    `def check_${i}(path):`,
    `    return [p for p in path.iterdir() if p.suffix == ".py"]  # ${i}`,
    '```',
  ].join('\n');
}
