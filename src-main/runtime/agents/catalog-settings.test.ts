/**
 * The catalog's bare toolcall agent honours the per-agent run settings of config.toml
 * (max_steps, duplicate_threshold, max_messages, max_observe, tool_choice,
 * text_reply_policy) and has OpenManus's tools: create_chat_completion and terminate.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEventPayload } from '@shared/events';
import { AGENT_BUILDERS, type AgentBuildInput } from './catalog';
import type { AgentRunSettings } from '../config/schema';
import { OpenAiLlm } from '../llm/openai-llm';
import { FAST_RETRY, testProfile } from '../llm/testing/profiles';
import {
  startScriptedServer,
  type ScriptedOpenAiServer,
} from '../llm/testing/scripted-openai-server';
import { reply } from '../llm/testing/scripted-replies';

let server: ScriptedOpenAiServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('catalog: the toolcall agent', () => {
  it('honours the resolved run settings and carries create_chat_completion and terminate', async () => {
    const started = await startScriptedServer(() => reply.text('just words'));
    server = started.server;
    const settings: AgentRunSettings = {
      maxSteps: 7,
      duplicateThreshold: 5,
      maxMessages: 40,
      maxObserve: 500,
      toolChoice: 'required',
      textReplyPolicy: 'finish',
    };
    const events: RunEventPayload[] = [];
    const input = {
      name: 'toolcall',
      llm: new OpenAiLlm(testProfile(started.baseUrl), { retry: FAST_RETRY }),
      settings,
      // the bare agent uses neither the config, the session nor the services
      config: undefined as never,
      session: undefined as never,
      services: undefined as never,
      env: { emit: (e: RunEventPayload) => events.push(e), runId: 'r' },
    } satisfies AgentBuildInput;
    const built = await AGENT_BUILDERS.toolcall(input);
    const agent = built.agent;
    expect(agent.maxSteps).toBe(7);
    expect(agent.duplicateThreshold).toBe(5);
    expect(agent.memory.maxMessages).toBe(40);
    expect(agent.tools.names.sort()).toEqual(['create_chat_completion', 'terminate']);
    const result = await agent.run('answer me');
    await built.dispose();
    // required: text replies are reprompted, three in a row end the run
    expect(result).toMatchObject({ outcome: 'error', steps: 3 });
    expect(server.requests.every((r) => r.toolChoice === 'required')).toBe(true);

    // auto + finish: a long answer through create_chat_completion is capped at
    // max_observe, then the first text reply ends the run
    server.setScript([
      {
        content: null,
        toolCalls: [{ name: 'create_chat_completion', arguments: { response: 'y'.repeat(2000) } }],
      },
      reply.text('That is all.'),
    ]);
    const second = await AGENT_BUILDERS.toolcall({
      ...input,
      settings: { ...settings, toolChoice: 'auto', textReplyPolicy: 'finish' },
    });
    const finished = await second.agent.run('answer me');
    await second.dispose();
    expect(finished).toMatchObject({ outcome: 'finished', steps: 2 });
    const observation = second.agent.memory.messages.find((m) => m.role === 'tool')!;
    expect(observation.content!.length).toBeLessThanOrEqual(500);
    expect(observation.content).toMatch(/characters cut/);
  });
});
