/**
 * The agent loop's own cost per step (state machine, memory window, events, tool
 * dispatch), excluding model and tool time, at 1,000 and 10,000 steps with the
 * in-process scripted model. A flat per-step cost as the run grows means no work that
 * is quadratic in the history. Baseline in the same run: the 1,000-step figure.
 */
import { z } from 'zod';
import type { RunEventPayload } from '../src-shared/events';
import { ToolCallAgent } from '../src-main/runtime/agent/toolcall-agent';
import type { ChatRequest, ChatResponse, LlmClient } from '../src-main/runtime/llm/llm-client';
import { ScriptedLlm } from '../src-main/runtime/llm/scripted-llm';
import { ToolRegistry } from '../src-main/runtime/tools/tool-registry';
import type { Tool } from '../src-main/runtime/tools/tool';
import { report, type BenchResult } from './report';

class TimedLlm implements LlmClient {
  elapsed = 0;
  constructor(private readonly inner: LlmClient) {}
  get model() {
    return this.inner.model;
  }
  async complete(request: ChatRequest): Promise<ChatResponse> {
    const t = performance.now();
    const r = await this.inner.complete(request);
    this.elapsed += performance.now() - t;
    return r;
  }
}

async function measure(steps: number): Promise<{ perStepUs: number; events: number }> {
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
      {
        recordRequests: false,
      },
    ),
  );
  let events = 0;
  const sink = (_e: RunEventPayload) => {
    events++;
  };
  const agent = new ToolCallAgent(
    { name: 'bench', maxSteps: steps, maxMessages: 100 },
    { llm, tools: new ToolRegistry([echo]) },
    { emit: sink, runId: 'bench' },
  );
  const started = performance.now();
  const result = await agent.run('benchmark task');
  const total = performance.now() - started;
  if (result.steps !== steps) throw new Error(`expected ${steps} steps, ran ${result.steps}`);
  const loopOnly = total - llm.elapsed - toolTime;
  return { perStepUs: (loopOnly / steps) * 1000, events };
}

export async function loopOverheadBench(): Promise<BenchResult> {
  await measure(500); // warm up the JIT
  const small = await measure(1_000);
  const large = await measure(10_000);
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
  ]);
}
