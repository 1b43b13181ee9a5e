import { describe, expect, it } from 'vitest';
import type { RunEventPayload } from '@shared/events';
import { ToolCallAgent } from '../loop/toolcall-agent';
import type { ChatRequest, LlmClient } from '../llm/llm-client';
import { ScriptedLlm, type ScriptedReply } from '../llm/scripted-llm';
import { createTerminateTool } from '../tools/terminate';
import { ToolRegistry } from '../tools/tool-registry';
import { PlanningFlow, type ExecutorSpec } from './planning-flow';

type Replier = (request: ChatRequest, call: number) => ScriptedReply;

function executor(key: string, reply: Replier, log: ChatRequest[][] = []): ExecutorSpec {
  return {
    key,
    description: `the ${key} agent`,
    maxSteps: 5,
    async create({ emit, maxSteps, extraTools, specialToolNames }) {
      const calls: ChatRequest[] = [];
      log.push(calls);
      const llm = new ScriptedLlm((request, call) => {
        calls.push(request);
        return reply(request, call);
      });
      const tools = new ToolRegistry([createTerminateTool(), ...extraTools]);
      const agent = new ToolCallAgent(
        { name: key, maxSteps, specialToolNames },
        { llm, tools },
        { emit, runId: 'r' },
      );
      return {
        run: (prompt, signal) => agent.run(prompt, { signal }),
        dispose: () => tools.dispose(),
      };
    },
  };
}

const terminate = (status: 'success' | 'failure'): ScriptedReply => ({
  content: `done: ${status}`,
  toolCalls: [{ name: 'terminate', args: { status } }],
});

function currentStepText(request: ChatRequest): string {
  const prompt = request.messages.find((m) => m.role === 'user')?.content ?? '';
  return /YOUR CURRENT TASK: step \d+: "(.*)"/.exec(prompt)?.[1] ?? '';
}

function planner(replies: ScriptedReply[]) {
  return new ScriptedLlm(replies, { model: 'planner-model' });
}

const createPlan = (steps: string[]): ScriptedReply => ({
  toolCalls: [
    { name: 'planning', args: { command: 'create', plan_id: 'ignored', title: 'The plan', steps } },
  ],
});

function run(
  flowOptions: Partial<ConstructorParameters<typeof PlanningFlow>[0]> &
    Pick<ConstructorParameters<typeof PlanningFlow>[0], 'planner' | 'executors'>,
) {
  const events: RunEventPayload[] = [];
  const flow = new PlanningFlow({
    maxSteps: 50,
    emit: (e) => events.push(e),
    planId: 'plan_test',
    ...flowOptions,
  });
  return { flow, events };
}

function lastPlan(events: RunEventPayload[]) {
  const updates = events.filter((e) => e.type === 'plan.updated');
  const last = updates.at(-1);
  if (!last || last.type !== 'plan.updated') throw new Error('no plan.updated event');
  return last;
}

describe('PlanningFlow', () => {
  it('runs a three-step plan across two executors, blocks a failing step after a retry, replans, and finishes', async () => {
    const sweCalls: ChatRequest[][] = [];
    const { flow, events } = run({
      planner: planner([
        createPlan([
          '[manus] gather the data',
          '[swe] build the report tool',
          '[manus] write the report',
        ]),
        {
          toolCalls: [
            {
              name: 'planning',
              args: {
                command: 'update',
                plan_id: 'x',
                steps: [
                  '[manus] gather the data',
                  '[swe] build the report tool',
                  '[manus] write the report by hand',
                  '[manus] write the report',
                ],
              },
            },
          ],
        },
        { content: 'Summary: report written by hand; the tool could not be built.' },
      ]),
      executors: [
        executor('manus', () => terminate('success')),
        executor('swe', () => terminate('failure'), sweCalls),
      ],
    });
    const result = await flow.run('produce the quarterly report');

    expect(result.outcome).toBe('finished');
    expect(result.terminateStatus).toBe('failure'); // a step stayed blocked
    expect(sweCalls).toHaveLength(2); // first attempt + one retry, then blocked
    const plan = lastPlan(events);
    expect(plan.steps.map((s) => s.status)).toEqual([
      'completed',
      'blocked',
      'completed',
      'completed',
    ]);
    expect(plan.steps.map((s) => s.agent)).toEqual(['manus', 'swe', 'manus', 'manus']);
    expect(plan.steps[1]?.notes).toMatch(/Blocked after 2 attempt/);
    expect(result.stepResults.at(-1)).toContain('Summary: report written by hand');
  });

  it('fixes openmanus §6 (early exit never fired): an executor can finish the whole task early', async () => {
    const manusCalls: ChatRequest[][] = [];
    const { flow, events } = run({
      planner: planner([
        createPlan(['look around', 'do the work', 'verify']),
        { content: 'All done early.' },
      ]),
      executors: [
        executor(
          'manus',
          () => ({
            toolCalls: [{ name: 'finish_plan', args: { summary: 'already solved in step 0' } }],
          }),
          manusCalls,
        ),
      ],
    });
    const result = await flow.run('a task that turns out trivial');
    expect(result).toMatchObject({ outcome: 'finished', terminateStatus: 'success' });
    expect(manusCalls).toHaveLength(1);
    const plan = lastPlan(events);
    expect(plan.steps.map((s) => s.status)).toEqual(['completed', 'completed', 'completed']);
    expect(plan.steps[2]?.notes).toMatch(/Skipped: the task was finished early at step 0/);
  });

  it("the planner's model calls say their attempts and emit their retries (issue 17 pending row)", async () => {
    const scripted = planner([createPlan(['do the work']), { content: 'Done.' }]);
    // a client that retried once before answering, as OpenAiLlm does on a 429
    const retrying: LlmClient = {
      model: scripted.model,
      maxAttempts: 3,
      complete: (request, options) => {
        options?.onRetry?.({ attempt: 1, status: 429, delayMs: 10, error: 'Rate limited' });
        return scripted.complete(request, options);
      },
    };
    const { flow, events } = run({
      planner: retrying,
      executors: [executor('manus', () => terminate('success'))],
    });
    await flow.run('a task');
    const requested = events.filter((e) => e.type === 'llm.requested' && e.agent === 'planning');
    expect(requested[0]).toMatchObject({ maxAttempts: 3 });
    const retried = events.filter((e) => e.type === 'llm.retried' && e.agent === 'planning');
    expect(retried.length).toBeGreaterThan(0);
    expect(retried[0]).toMatchObject({ attempt: 1, status: 429, error: 'Rate limited' });
  });

  it('fixes openmanus §6 (infinite loop on executor errors): a step whose executor errors is retried, then blocked', async () => {
    let errors = 0;
    const { flow, events } = run({
      planner: planner([
        createPlan(['the only step']),
        { content: 'no replan' },
        { content: 'summary' },
      ]),
      maxStepRetries: 2,
      executors: [
        executor('manus', () => {
          errors++;
          throw new Error('model exploded');
        }),
      ],
    });
    const result = await flow.run('t');
    expect(errors).toBe(3);
    expect(result.outcome).toBe('finished');
    expect(lastPlan(events).steps[0]).toMatchObject({ status: 'blocked' });
    expect(lastPlan(events).steps[0]?.notes).toContain('model exploded');
  });

  it('fixes openmanus §6 (marked completed unconditionally): a step that ends in failure is not completed', async () => {
    const { flow, events } = run({
      planner: planner([createPlan(['a']), { content: 'no replan' }, { content: 'summary' }]),
      maxStepRetries: 0,
      executors: [executor('manus', () => terminate('failure'))],
    });
    await flow.run('t');
    expect(lastPlan(events).steps[0]?.status).toBe('blocked');
  });

  it('fixes openmanus §6 (uppercase-only tags): routes [swe], [SWE] and [Swe] to the swe executor', async () => {
    const seen: string[] = [];
    const record = (key: string) => (request: ChatRequest) => {
      seen.push(`${key}:${currentStepText(request)}`);
      return terminate('success');
    };
    const { flow } = run({
      planner: planner([
        createPlan(['[swe] one', '[SWE] two', '[Swe] three', 'untagged']),
        { content: 's' },
      ]),
      executors: [executor('manus', record('manus')), executor('swe', record('swe'))],
      defaultExecutor: 'manus',
    });
    await flow.run('t');
    expect(seen).toEqual(['swe:[swe] one', 'swe:[SWE] two', 'swe:[Swe] three', 'manus:untagged']);
  });

  it('fixes openmanus §6 (shared executor state): executors start fresh for each step unless carryMemory is set', async () => {
    const log: ChatRequest[][] = [];
    const { flow } = run({
      planner: planner([createPlan(['first', 'second']), { content: 's' }]),
      executors: [executor('manus', () => terminate('success'), log)],
    });
    await flow.run('t');
    expect(log).toHaveLength(2);
    expect(
      log[1]![0]!.messages.some(
        (m) =>
          m.content?.includes('"first"') &&
          m.role === 'user' &&
          m.content.includes('YOUR CURRENT TASK: step 0'),
      ),
    ).toBe(false);

    const carriedLog: ChatRequest[][] = [];
    const carried = run({
      planner: planner([createPlan(['first', 'second']), { content: 's' }]),
      executors: [executor('manus', () => terminate('success'), carriedLog)],
      carryMemory: true,
    });
    await carried.flow.run('t');
    expect(carriedLog).toHaveLength(1);
    expect(
      carriedLog[0]![1]!.messages.some((m) => m.content?.includes('YOUR CURRENT TASK: step 0')),
    ).toBe(true);
  });

  it('falls back to a one-step plan holding the task when the planner makes no plan', async () => {
    const { flow, events } = run({
      planner: planner([{ content: 'I would rather not use tools' }, { content: 'summary' }]),
      executors: [executor('manus', () => terminate('success'))],
    });
    const result = await flow.run('just do it');
    expect(result.outcome).toBe('finished');
    expect(lastPlan(events).steps).toEqual([
      { text: 'just do it', status: 'completed', notes: expect.any(String) },
    ]);
  });

  it('keeps one step counter and unique memory indexes per agent across executors', async () => {
    const { flow, events } = run({
      planner: planner([createPlan(['[manus] a', '[swe] b', '[manus] c']), { content: 's' }]),
      executors: [
        executor('manus', (_r, call) =>
          call === 0 ? { content: 'thinking' } : terminate('success'),
        ),
        executor('swe', () => terminate('success')),
      ],
    });
    const result = await flow.run('t');
    const steps = events.flatMap((e) => (e.type === 'step.started' ? [e.step] : []));
    expect(steps).toEqual([1, 2, 3, 4, 5]);
    expect(result.steps).toBe(5);
    for (const agent of ['manus', 'swe', 'planning']) {
      const indexes = events.flatMap((e) =>
        e.type === 'memory.appended' && e.agent === agent ? [e.index] : [],
      );
      expect(new Set(indexes).size, agent).toBe(indexes.length);
    }
  });

  it('stops at the run-wide step budget with outcome max_steps', async () => {
    const { flow } = run({
      maxSteps: 3,
      planner: planner([createPlan(['a', 'b', 'c', 'd']), { content: 's' }]),
      executors: [
        executor('manus', (_r, call) => (call < 1 ? { content: 'hmm' } : terminate('success'))),
      ],
    });
    const result = await flow.run('t');
    expect(result.outcome).toBe('max_steps');
    expect(result.steps).toBe(3);
  });

  it('is cancelled promptly through the signal', async () => {
    const controller = new AbortController();
    const { flow } = run({
      planner: planner([createPlan(['slow'])]),
      executors: [executor('manus', () => ({ delayMs: 10_000, content: 'never' }))],
    });
    const pending = flow.run('t', { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const result = await pending;
    expect(result.outcome).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
