/**
 * The BaseAgent loop against the scripted OpenAI server: terminal state and typed outcome,
 * step counter per run, the max-steps message, cancellation. Each regression test is named
 * after the defect of openmanus.md 7.1 it covers and fails on the original's behaviour.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { reply } from '../llm/testing/scripted-replies';
import { fail, type Tool } from '../tools/tool';
import { ScriptedLlm } from '../llm/scripted-llm';
import { ToolRegistry } from '../tools/tool-registry';
import { BaseAgent } from './base-agent';
import { ToolCallAgent } from './toolcall-agent';
import { call, startHarness, type Harness } from './testing/agent-harness';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe('BaseAgent', () => {
  it('fixes openmanus 7.1(a): FINISHED stays visible after run() returns, with a typed outcome', async () => {
    h = await startHarness([call('echo', { text: 'hi' }), reply.terminate('success')]);
    const result = await h.run();
    // The original restored IDLE in finally: state was IDLE after a terminate.
    expect(h.agent.state).toBe('FINISHED');
    expect(result).toMatchObject({
      outcome: 'finished',
      state: 'FINISHED',
      steps: 2,
      terminateStatus: 'success',
    });
    expect(result.usage.prompt).toBeGreaterThan(0);
    expect(result.usage.completion).toBeGreaterThan(0);
    const states = h.of('state.changed').map((e) => `${e.from}>${e.to}`);
    expect(states).toEqual(['IDLE>RUNNING', 'RUNNING>FINISHED']);
  });

  it('fixes openmanus 7.1(a): ERROR stays visible after a failed run, with the reason', async () => {
    h = await startHarness([reply.unauthorized()]);
    const result = await h.run();
    expect(h.agent.state).toBe('ERROR');
    expect(result.outcome).toBe('error');
    expect(result.error).toMatch(/rejected the API key/);
    expect(h.of('state.changed').at(-1)).toMatchObject({ from: 'RUNNING', to: 'ERROR' });
  });

  it('fixes openmanus 7.1(b): the step counter restarts, so a second run gets its full budget', async () => {
    // Run 1 terminates at step 2; run 2 never terminates. The original's second run
    // executed 8 of 10 steps, because current_step was only reset at max_steps.
    h = await startHarness(
      (request) => {
        const task = request.messages.find((m) => m.role === 'user' && m.content === 'second');
        if (task) return call('echo', { text: `again ${request.index}` });
        const assistants = request.messages.filter((m) => m.role === 'assistant').length;
        return assistants === 0 ? call('echo', { text: 'one' }) : reply.terminate();
      },
      { settings: { maxSteps: 5, duplicateThreshold: 100 } },
    );
    const first = await h.run('first');
    expect(first).toMatchObject({ outcome: 'finished', steps: 2 });
    const second = await h.run('second');
    expect(second).toMatchObject({ outcome: 'max_steps', steps: 5 });
    expect(h.agent.currentStep).toBe(5);
  });

  it('reaching the limit appends "Terminated: Reached max steps (N)" and ends with outcome max_steps', async () => {
    h = await startHarness((r) => call('echo', { text: `n${r.index}` }), {
      settings: { maxSteps: 3 },
    });
    const result = await h.run();
    expect(result).toMatchObject({ outcome: 'max_steps', state: 'FINISHED', steps: 3 });
    expect(result.stepResults.at(-1)).toBe('Terminated: Reached max steps (3)');
    const last = h.of('memory.appended').at(-1)!;
    expect(last.message).toEqual({
      role: 'assistant',
      content: 'Terminated: Reached max steps (3)',
    });
    expect(h.echoed).toEqual(['n0', 'n1', 'n2']);
  });

  it('L11: a long run of 50 steps stops at its limit with outcome max_steps', async () => {
    h = await startHarness((r) => call('echo', { text: `n${r.index}` }), {
      settings: { maxSteps: 50, maxMessages: 20 },
    });
    const result = await h.run();
    expect(result).toMatchObject({ outcome: 'max_steps', steps: 50 });
    expect(h.server.answered).toHaveLength(50);
  });

  it('cancellation stops the model call promptly and ends with outcome cancelled', async () => {
    h = await startHarness([{ hang: true }]);
    const controller = new AbortController();
    let stoppedAt = 0;
    setTimeout(() => {
      stoppedAt = Date.now();
      controller.abort();
    }, 200);
    const result = await h.run('task', controller.signal);
    expect(Date.now() - stoppedAt).toBeLessThan(1000);
    expect(result).toMatchObject({ outcome: 'cancelled', state: 'FINISHED', steps: 1 });
    expect(h.of('step.finished')).toHaveLength(1);
  });

  it('cancellation stops a running tool promptly, and its call still gets its one tool message', async () => {
    const slow: Tool<{ seconds: number }> = {
      name: 'sleep',
      description: 'waits',
      schema: z.object({ seconds: z.number() }),
      execute: ({ seconds }, { signal }) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => resolve(fail('should not finish')), seconds * 1000);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(signal.reason);
          });
        }),
    };
    h = await startHarness(
      [
        {
          content: null,
          toolCalls: [
            { name: 'sleep', arguments: { seconds: 30 } },
            { name: 'echo', arguments: { text: 'never' } },
          ],
        },
      ],
      { tools: [slow] },
    );
    const controller = new AbortController();
    let stoppedAt = 0;
    setTimeout(() => {
      stoppedAt = Date.now();
      controller.abort();
    }, 200);
    const result = await h.run('task', controller.signal);
    expect(Date.now() - stoppedAt).toBeLessThan(1000);
    expect(result.outcome).toBe('cancelled');
    expect(h.echoed).toEqual([]);
    const finished = h.of('tool.finished');
    expect(finished.map((e) => [e.name, e.ok])).toEqual([
      ['sleep', false],
      ['echo', false],
    ]);
    expect(finished[0]!.error).toMatch(/Cancelled/);
    const toolMessages = h.agent.memory.messages.filter((m) => m.role === 'tool');
    expect(toolMessages).toHaveLength(2);
  });

  it('a stop between steps ends the run before the next model call', async () => {
    const controller = new AbortController();
    h = await startHarness((r) => {
      if (r.index === 0) setTimeout(() => controller.abort(), 0);
      return { ...call('echo', { text: 'x' }), delayMs: 50 };
    });
    const result = await h.run('task', controller.signal);
    expect(result.outcome).toBe('cancelled');
    expect(h.server.answered.length).toBeLessThanOrEqual(1);
  });

  it('has the original step limits by default: 10 for a base agent, 30 for a ToolCallAgent', async () => {
    class Idle extends BaseAgent {
      protected async step() {
        return 'idle';
      }
    }
    const idle = new Idle({ name: 'idle' }, { emit: () => {}, runId: 'r' });
    expect(idle.maxSteps).toBe(10);
    expect((await idle.run('t')).steps).toBe(10);
    const bare = new ToolCallAgent(
      { name: 'bare' },
      { llm: new ScriptedLlm([]), tools: new ToolRegistry() },
      { emit: () => {}, runId: 'r' },
    );
    expect(bare.maxSteps).toBe(30);
  });

  it('refuses a second concurrent run of the same agent', async () => {
    h = await startHarness([{ ...reply.terminate(), delayMs: 100 }]);
    const first = h.run();
    await expect(h.agent.run('again')).rejects.toThrow(/already running/);
    await first;
  });
});
