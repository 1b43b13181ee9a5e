/**
 * `llm.requested` records what the model was sent (issue 17 item 2): rebuilt from the
 * run's events (src-shared/model-request.ts), every request equals the body the model
 * server received — messages, tools with their schemas, tool_choice, max_tokens,
 * temperature — and the tool list travels once, by hash after that.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEventStamper, type RunEvent, type RunEventPayload } from '@shared/events';
import { requestsOfRun } from '@shared/model-request';
import { AGENT_BUILDERS, type AgentBuildInput } from './catalog';
import { OpenAiLlm } from '../llm/openai-llm';
import { FAST_RETRY, testProfile } from '../llm/testing/profiles';
import {
  startScriptedServer,
  type ScriptedOpenAiServer,
} from '../llm/testing/scripted-openai-server';
import { reply } from '../llm/testing/scripted-replies';
import { createInitialPlan } from '../flow/planner';
import { PlanStore } from '../tools/planning/plan-store';

let server: ScriptedOpenAiServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** What the client sent, less the transport's own options. */
function sentBody(body: Record<string, unknown>): Record<string, unknown> {
  const { stream: _s, stream_options: _o, ...rest } = body;
  return rest;
}

function recorder() {
  const stamper = createEventStamper('run-req');
  const events: RunEvent[] = [];
  return { events, emit: (e: RunEventPayload) => events.push(stamper.stamp(e)) };
}

describe('llm.requested: the exact request', () => {
  it("equals the server's request log for each step of an agent, tools sent once", async () => {
    const started = await startScriptedServer([
      reply.tool('create_chat_completion', { response: 'first answer' }, 'thinking aloud'),
      reply.tool('create_chat_completion', { response: 'second answer' }),
      reply.terminate(),
    ]);
    server = started.server;
    const { events, emit } = recorder();
    const input = {
      name: 'toolcall',
      llm: new OpenAiLlm(testProfile(started.baseUrl, { temperature: 0.3, maxTokens: 321 }), {
        retry: FAST_RETRY,
      }),
      settings: {
        maxSteps: 5,
        duplicateThreshold: 5,
        maxMessages: 3,
        maxObserve: 500,
        toolChoice: 'required',
        textReplyPolicy: 'finish',
      },
      config: undefined as never,
      session: undefined as never,
      services: undefined as never,
      env: { emit, runId: 'run-req' },
    } satisfies AgentBuildInput;
    const built = await AGENT_BUILDERS.toolcall(input);
    await built.agent.run('answer me twice');
    await built.dispose();

    const rebuilt = requestsOfRun(events);
    expect(rebuilt).toHaveLength(3);
    expect(server.requests).toHaveLength(3);
    rebuilt.forEach(({ body }, i) => {
      expect(body).toEqual(sentBody(server!.requests[i]!.body));
    });
    const first = rebuilt[0]!.body;
    expect(first).toMatchObject({ temperature: 0.3, max_tokens: 321, tool_choice: 'required' });
    expect((first['tools'] as unknown[]).length).toBe(2);
    // memory's window (max_messages 3) dropped messages: the rebuilt request left them out too
    expect(events.some((e) => e.type === 'memory.truncated')).toBe(true);
    // the list itself only with the first request; the rest name it by hash
    const requested = events.filter((e) => e.type === 'llm.requested');
    expect(requested[0]!.tools).toHaveLength(2);
    expect(requested[1]!.tools).toBeUndefined();
    expect(requested[2]!.tools).toBeUndefined();
    expect(new Set(requested.map((e) => e.toolsHash)).size).toBe(1);
    expect(requested[0]!.toolsHash).toMatch(/^[0-9a-f]{16}$/);
    const responded = events.filter((e) => e.type === 'llm.responded');
    expect(responded.every((e) => e.usageSource === 'provider')).toBe(true);
  });

  it("records the planner's own messages as sent", async () => {
    const started = await startScriptedServer([
      reply.tool('planning', {
        command: 'create',
        plan_id: 'p1',
        title: 'Plan',
        steps: ['look', 'do'],
      }),
    ]);
    server = started.server;
    const { events, emit } = recorder();
    const llm = new OpenAiLlm(testProfile(started.baseUrl), { retry: FAST_RETRY });
    const deps = {
      llm,
      store: new PlanStore(emit),
      emit,
      usage: { prompt: 0, completion: 0 },
      currentStep: () => 0,
    };
    await createInitialPlan(deps, 'p1', 'a task', [], new AbortController().signal);
    const rebuilt = requestsOfRun(events);
    expect(rebuilt).toHaveLength(1);
    expect(rebuilt[0]!.body).toEqual(sentBody(server.requests[0]!.body));
    expect(rebuilt[0]!.event.messages).toHaveLength(2);
    expect(rebuilt[0]!.body['tool_choice']).toBe('auto');
  });
});
