/**
 * What the agent debugger costs a run that never pauses: the loop's own time per step
 * (excluding model and tool time, as in loop-overhead.bench.ts) with ten breakpoints
 * of every kind set that never fire, against the same run with none. The debugger is
 * wired as in a real run (every event goes through its observer, the loop awaits its
 * gates). Target: within 5% (the budget). Time is the process's CPU time
 * (`process.cpuUsage`), not the wall clock: on a machine shared with other busy
 * processes the wall clock measures the neighbours. Runs alternate between the two
 * set-ups, so what drift remains falls on both alike.
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
import { RunDebugger } from '../src-main/runtime/debug/run-debugger';
import { ToolRegistry } from '../src-main/runtime/tools/tool-registry';
import type { Tool } from '../src-main/runtime/tools/tool';
import { report, type BenchResult } from './report';

/** Ten breakpoints that never fire in this run, one or more of every kind. */
export const NEVER_FIRING = [
  'tool:never_called',
  'tool:echo:/^will never match$/',
  'tool:echo:no such text',
  'stuck',
  'tool_error',
  'model_error',
  'step:1000000',
  'tokens:1000000000000',
  'cost:1000000000',
  'tool:terminate',
];

/** CPU time of this process in ms (user + system). */
function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

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
    const t = cpuMs();
    const r = await this.inner.complete(request, options);
    this.elapsed += cpuMs() - t;
    return r;
  }
}

/** Loop-only µs per step of one run of `steps` steps with these breakpoints. */
async function measure(steps: number, breakpoints: readonly string[]): Promise<number> {
  let toolTime = 0;
  const echo: Tool<{ text: string }> = {
    name: 'echo',
    description: 'echo',
    schema: z.object({ text: z.string() }),
    execute: async ({ text }) => {
      const t = cpuMs();
      const out = { output: text };
      toolTime += cpuMs() - t;
      return out;
    },
  };
  const llm = new TimedLlm(
    new ScriptedLlm(
      (_req, i) => ({
        content: `step ${i}`,
        toolCalls: [{ name: 'echo', args: { text: `n${i}` } }],
      }),
      { recordRequests: false, model: 'gpt-4o' },
    ),
  );
  let sink = (_e: RunEventPayload) => {};
  const debug = new RunDebugger((e) => sink(e));
  sink = (e) => debug.observe(e);
  debug.setPricing({ priceOf: () => ({ input: 2.5, output: 10 }), models: ['gpt-4o'] });
  debug.addBreakpoints(breakpoints, 'ui');
  debug.announce();
  const agent = new ToolCallAgent(
    { name: 'bench', maxSteps: steps, maxMessages: 100 },
    { llm, tools: new ToolRegistry([echo]) },
    { emit: (e) => sink(e), runId: 'bench', debug },
  );
  const started = cpuMs();
  const result = await agent.run('benchmark task');
  const total = cpuMs() - started;
  if (result.steps !== steps) throw new Error(`expected ${steps} steps, ran ${result.steps}`);
  if (debug.status.state !== 'running') throw new Error('a breakpoint fired');
  return ((total - llm.elapsed - toolTime) / steps) * 1000;
}

/** ns per safe point (a before_model and a before_tools gate) with these breakpoints. */
function gateCost(breakpoints: readonly string[]): number {
  const debug = new RunDebugger(() => {});
  debug.setPricing({ priceOf: () => ({ input: 2.5, output: 10 }), models: ['gpt-4o'] });
  debug.addBreakpoints(breakpoints, 'ui');
  const signal = new AbortController().signal;
  const rounds = 200_000;
  const started = cpuMs();
  for (let i = 0; i < rounds; i++) {
    if (debug.gate({ agent: 'bench', point: 'before_model', signal })) throw new Error('paused');
    // a fresh call each time, as each step brings one (parsed arguments are cached per call)
    const calls = [
      {
        id: `c${i}`,
        type: 'function' as const,
        function: { name: 'echo', arguments: `{"text":"n${i}"}` },
      },
    ];
    if (debug.gate({ agent: 'bench', point: 'before_tools', signal, calls }))
      throw new Error('paused');
  }
  return ((cpuMs() - started) / (rounds * 2)) * 1e6;
}

export async function debuggerBench(): Promise<BenchResult> {
  const steps = 2_000;
  await measure(steps, []); // warm up the JIT and the tokenizer
  await measure(steps, NEVER_FIRING);
  const none: number[] = [];
  const ten: number[] = [];
  const rounds = 10;
  for (let round = 0; round < rounds; round++) {
    // alternate which goes first, so drift on the machine falls on both
    if (round % 2 === 0) {
      none.push(await measure(steps, []));
      ten.push(await measure(steps, NEVER_FIRING));
    } else {
      ten.push(await measure(steps, NEVER_FIRING));
      none.push(await measure(steps, []));
    }
  }
  gateCost(NEVER_FIRING); // warm up
  const gateNone = gateCost([]);
  const gateTen = gateCost(NEVER_FIRING);
  const best = (xs: number[]) => Math.min(...xs);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return report(
    `agent debugger: loop overhead per step, ${steps} steps (scripted model, excluding model and tool time)`,
    [
      {
        label: 'no breakpoints (baseline)',
        value: best(none),
        unit: 'µs/step',
        note: `best of ${rounds}`,
      },
      {
        label: 'ten never-firing breakpoints',
        value: best(ten),
        unit: 'µs/step',
        note: `best of ${rounds}`,
      },
      { label: 'ratio ten/none, best (target ≤ 1.05)', value: best(ten) / best(none), unit: '×' },
      {
        label: 'ratio of the medians',
        value: median(ten) / median(none),
        unit: '×',
        note: `medians ${median(ten).toFixed(1)} / ${median(none).toFixed(1)} µs`,
      },
      { label: 'one safe point, no breakpoints', value: gateNone, unit: 'ns' },
      { label: 'one safe point, ten breakpoints', value: gateTen, unit: 'ns' },
      {
        label: 'two safe points (ten) as a share of a step',
        value: ((2 * gateTen) / 1000 / best(none)) * 100,
        unit: '% (target ≤ 5)',
        note: 'the isolated cost: steadier than the run ratio on a busy machine',
      },
    ],
  );
}
