/**
 * Agents written with real frameworks, as their users write them, pointed at the model
 * gateway with the project's scripted server behind it (issue 29 "Done when"): the
 * OpenAI Agents SDK (chat-completions mode), LangGraph.js with @langchain/openai, and the
 * Vercel AI SDK (streamed). Each becomes a run with its steps, its tool calls paired with
 * the results it sent back, and the scripted repeat marked duplicate and stuck.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RunEvent } from '@shared/events';
import type { ScriptFunction } from '../llm/testing/scripted-openai-server';
import { startGatewayFixture, waitFor, type GatewayFixture } from './testing/gateway-fixture';

const weather = (city: string) => ({ name: 'get_weather', arguments: { city } });
const script: ScriptFunction = (request) => {
  const turn = request.messages.filter((m) => m.role === 'assistant').length + 1;
  if (turn === 1) return { toolCalls: [weather('Paris'), weather('Rome')] };
  if (turn <= 4) return { content: 'Checking again.', toolCalls: [weather('Paris')] };
  return { content: 'Sunny in Paris and Rome.' };
};
const TASK = 'What is the weather in Paris and Rome?';
const forecast = ({ city }: { city: string }) => `sunny in ${city}`;

const ofType = <T extends RunEvent['type']>(events: RunEvent[], type: T) =>
  events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

let fixture: GatewayFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** The run of `name`, once ended: five steps, paired calls, the repeat duplicate and stuck. */
async function expectRecorded(name: string): Promise<void> {
  const f = fixture!;
  const runId = f.runIds().find((id) => f.runtime.runs.get(id)?.agent === `external: ${name}`);
  expect(runId, `a run of external: ${name}`).toBeDefined();
  await waitFor(() => f.eventsOf(runId!).some((e) => e.type === 'run.finished'), 'the run to end');
  const events = f.eventsOf(runId!);
  expect(ofType(events, 'run.started')[0]!.task).toContain(TASK);
  expect(ofType(events, 'step.started').map((e) => e.step)).toEqual([1, 2, 3, 4, 5]);
  const first = ofType(events, 'tool.finished').filter((e) => e.step === 1);
  expect(first.map((e) => [e.name, e.ok])).toEqual([
    ['get_weather', true],
    ['get_weather', true],
  ]);
  expect(first[0]!.output).toContain('sunny in Paris');
  expect(first[1]!.output).toContain('sunny in Rome');
  const calls = ofType(events, 'tool.started').filter((e) => e.step === 1);
  expect(calls.map((e) => e.toolCallId)).toEqual(first.map((e) => e.toolCallId));
  const assistants = ofType(events, 'memory.appended').filter(
    (e) => e.message.role === 'assistant',
  );
  expect(assistants[2]!.duplicate).toBeDefined();
  expect(ofType(events, 'stuck.detected').map((e) => e.step)).toContain(4);
  expect(ofType(events, 'run.finished')[0]).toMatchObject({ outcome: 'finished', steps: 5 });
}

describe('the model gateway with agent frameworks', () => {
  it('records an OpenAI Agents SDK agent (chat-completions mode)', async () => {
    fixture = await startGatewayFixture(script, { idleMs: 1_500 });
    const { Agent, Runner, tool, OpenAIProvider, setTracingDisabled } =
      await import('@openai/agents');
    setTracingDisabled(true);
    // as its docs configure another OpenAI-compatible server; no header: grouped by conversation
    const modelProvider = new OpenAIProvider({
      baseURL: fixture.gateway.url,
      apiKey: fixture.gateway.token,
      useResponses: false,
    });
    const agent = new Agent({
      name: 'Weather',
      instructions: 'Answer with the weather.',
      model: 'gpt-4o-mini',
      tools: [
        tool({
          name: 'get_weather',
          description: 'The weather of a city',
          parameters: z.object({ city: z.string() }),
          execute: forecast,
        }),
      ],
    });
    const result = await new Runner({ modelProvider }).run(agent, TASK, { maxTurns: 10 });
    expect(result.finalOutput).toBe('Sunny in Paris and Rome.');
    await expectRecorded('openai-agents');
  });

  it('records a LangGraph.js ReAct agent on @langchain/openai', async () => {
    fixture = await startGatewayFixture(script, { idleMs: 1_500 });
    const { ChatOpenAI } = await import('@langchain/openai');
    const { tool } = await import('@langchain/core/tools');
    const { createReactAgent } = await import('@langchain/langgraph/prebuilt');
    const llm = new ChatOpenAI({
      model: 'gpt-4o-mini',
      apiKey: fixture.gateway.token,
      maxRetries: 0,
      configuration: {
        baseURL: fixture.gateway.url,
        defaultHeaders: { 'X-Workbench-Run': 'langgraph' },
      },
    });
    const getWeather = tool(forecast, {
      name: 'get_weather',
      description: 'The weather of a city',
      schema: z.object({ city: z.string() }),
    });
    const agent = createReactAgent({ llm, tools: [getWeather] });
    const state = await agent.invoke({ messages: [{ role: 'user', content: TASK }] });
    expect(String(state.messages.at(-1)?.content)).toBe('Sunny in Paris and Rome.');
    await expectRecorded('langgraph');
  });

  it('records a Vercel AI SDK agent, streamed', async () => {
    fixture = await startGatewayFixture(script, { idleMs: 1_500 });
    const { streamText, tool, stepCountIs } = await import('ai');
    const { createOpenAI } = await import('@ai-sdk/openai');
    const provider = createOpenAI({
      baseURL: fixture.gateway.url,
      apiKey: fixture.gateway.token,
      headers: { 'X-Workbench-Run': 'ai-sdk' },
    });
    const result = streamText({
      model: provider.chat('gpt-4o-mini'),
      prompt: TASK,
      maxRetries: 0,
      stopWhen: stepCountIs(8),
      tools: {
        get_weather: tool({
          description: 'The weather of a city',
          inputSchema: z.object({ city: z.string() }),
          execute: async (input: { city: string }) => forecast(input),
        }),
      },
    });
    expect(await result.text).toBe('Sunny in Paris and Rome.');
    await expectRecorded('ai-sdk');
  });
});
