/**
 * The agent loop's own cost per step (state machine, memory window, events, stuck
 * detection, request building, token counting, tool dispatch), excluding model and tool
 * time, at 1,000 and 10,000 steps with the in-process scripted model and the default
 * window of 100 messages. A flat per-step cost as the run grows means no work that is
 * quadratic in the history. Baseline in the same run: the 1,000-step figure; the
 * 10,000-step run is also split into its first and last 1,000 steps. Each figure is the
 * best of a few runs (the machine is shared; slower runs measure the neighbours).
 */
import { z } from 'zod';
import type { RunEventPayload } from '../src-shared/events';
import { ToolCallAgent } from '../src-main/runtime/loop/toolcall-agent';
import type {
  ChatOptions,
  ChatRequest,
  ChatResponse,
  LlmClient,
} from '../src-main/runtime/llm/llm-client';
import { ScriptedLlm } from '../src-main/runtime/llm/scripted-llm';
import { ToolRegistry } from '../src-main/runtime/tools/tool-registry';
import type { Tool } from '../src-main/runtime/tools/tool';
import { report, type BenchResult } from './report';

/** Wraps the model so its time can be subtracted; counting tokens is the loop's cost. */
class TimedLlm implements LlmClient {
  elapsed = 0;
  constructor(private readonly inner: ScriptedLlm) {}
  get model() {
    return this.inner.model;
  }
  countTokens(request: ChatRequest): number {
    return this.inner.countTokens(request);
  }
  async complete(request: ChatRequest, options?: ChatOptions): Promise<ChatResponse> {
    const t = performance.now();
    const r = await this.inner.complete(request, options);
    this.elapsed += performance.now() - t;
    return r;
  }
}

interface Mark {
  at: number;
  model: number;
  tool: number;
}

async function measure(steps: number): Promise<{
  perStepUs: number;
  firstKUs: number;
  lastKUs: number;
  events: number;
}> {
  let toolTime = 0;
  const echo: Tool<{ text: string }> = {
    name: 'echo',
    description: 'echo',
    schema: z.object({ text: z.string() }),
    execute: async ({ text }) => {
      const t = performance.now();
      const out = { output: text };
      toolTime += performance.now() - t;
      return out;
    },
  };
  const llm = new TimedLlm(
    new ScriptedLlm(
      (_req, i) => ({
        content: `step ${i}`,
        toolCalls: [{ name: 'echo', args: { text: `n${i}` } }],
      }),
      { recordRequests: false },
    ),
  );
  const marks = new Map<number, Mark>();
  const markAt = new Set([1, 1001, steps - 999, steps]);
  let events = 0;
  const sink = (e: RunEventPayload) => {
    events++;
    if (e.type === 'step.started' && markAt.has(e.step)) {
      marks.set(e.step, { at: performance.now(), model: llm.elapsed, tool: toolTime });
    }
  };
  const agent = new ToolCallAgent(
    // every reply differs, so stuck detection runs each step without nudging
    { name: 'bench', maxSteps: steps, maxMessages: 100 },
    { llm, tools: new ToolRegistry([echo]) },
    { emit: sink, runId: 'bench' },
  );
  const started = performance.now();
  const result = await agent.run('benchmark task');
  const total = performance.now() - started;
  if (result.steps !== steps) throw new Error(`expected ${steps} steps, ran ${result.steps}`);
  const loopOnly = total - llm.elapsed - toolTime;
  const segment = (from: number, to: number) => {
    const a = marks.get(from)!;
    const b = marks.get(to)!;
    return ((b.at - a.at - (b.model - a.model) - (b.tool - a.tool)) / (to - from)) * 1000;
  };
  return {
    perStepUs: (loopOnly / steps) * 1000,
    firstKUs: segment(1, 1001),
    lastKUs: segment(steps - 999, steps),
    events,
  };
}

/** The fastest of a few runs: on a shared machine, the others measure the neighbours. */
async function best(steps: number, runs: number): ReturnType<typeof measure> {
  let fastest: Awaited<ReturnType<typeof measure>> | null = null;
  for (let i = 0; i < runs; i++) {
    const result = await measure(steps);
    if (!fastest || result.perStepUs < fastest.perStepUs) fastest = result;
  }
  return fastest!;
}

export async function loopOverheadBench(): Promise<BenchResult> {
  await measure(2_000); // warm up the JIT and the tokenizer
  const small = await best(1_001, 3);
  const large = await best(10_000, 2);
  return report('agent loop overhead per step (scripted model, excluding model and tool time)', [
    {
      label: '1,000 steps',
      value: small.perStepUs,
      unit: 'µs/step',
      note: `${small.events} events`,
    },
    {
      label: '10,000 steps',
      value: large.perStepUs,
      unit: 'µs/step',
      note: `${large.events} events`,
    },
    { label: 'ratio 10k/1k (flat = ~1)', value: large.perStepUs / small.perStepUs, unit: '×' },
    { label: '10k run: steps 1-1,000', value: large.firstKUs, unit: 'µs/step' },
    { label: '10k run: steps 9,001-10,000', value: large.lastKUs, unit: 'µs/step' },
    {
      label: 'ratio last/first 1,000 (flat = ~1)',
      value: large.lastKUs / large.firstKUs,
      unit: '×',
    },
  ]);
}
