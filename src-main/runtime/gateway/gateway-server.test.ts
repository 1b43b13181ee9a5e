/**
 * The gateway's HTTP side with the official `openai` client: the token, /v1/models,
 * /v1/responses where the upstream does not speak it, and grouping calls without a
 * header by conversation.
 */
import { afterEach, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import type { ScriptFunction } from '../llm/testing/scripted-openai-server';
import { startGatewayFixture, waitFor, type GatewayFixture } from './testing/gateway-fixture';

const echo: ScriptFunction = (request) => ({
  content: `reply ${request.messages.filter((m) => m.role === 'assistant').length + 1}`,
});

let fixture: GatewayFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const clientOf = (f: GatewayFixture, apiKey = f.gateway.token) =>
  new OpenAI({ baseURL: f.gateway.url, apiKey, maxRetries: 0 });

describe('the model gateway server', () => {
  it('refuses a call without the gateway token, and never takes the upstream key', async () => {
    fixture = await startGatewayFixture(echo);
    for (const key of ['wrong-token', 'sk-upstream-secret-key-0123456789']) {
      const error = await clientOf(fixture, key)
        .chat.completions.create({
          model: 'gpt-4o-mini',
          messages: [{ role: 'user', content: 'hi' }],
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      expect(String((error as Error).message)).toMatch(/gateway token as the API key/);
    }
    expect(fixture.upstream.requests).toHaveLength(0);
  });

  it('lists the upstream models and the profile alias; the alias calls the profile model', async () => {
    fixture = await startGatewayFixture(echo);
    const client = clientOf(fixture);
    const models = (await client.models.list()).data.map((m) => m.id);
    expect(models).toContain('workbench');
    await client.chat.completions.create({
      model: 'workbench',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(fixture.upstream.requests[0]!.model).toBe('gpt-4o-mini');
  });

  it('says clearly when the upstream does not speak the Responses API', async () => {
    fixture = await startGatewayFixture(echo);
    const error = await clientOf(fixture)
      .responses.create({ model: 'gpt-4o-mini', input: 'hi' })
      .catch((e: unknown) => e);
    expect(String((error as Error).message)).toMatch(
      /does not speak the Responses API .*chat_completions/,
    );
  });

  it('groups calls without a header by conversation: two interleaved agents are two runs', async () => {
    fixture = await startGatewayFixture(echo, { idleMs: 60_000 });
    const client = clientOf(fixture);
    const talk = async (history: OpenAI.ChatCompletionMessageParam[], text: string) => {
      history.push({ role: 'user', content: text });
      const reply = await client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: history,
      });
      history.push({ role: 'assistant', content: reply.choices[0]!.message.content });
    };
    const a: OpenAI.ChatCompletionMessageParam[] = [{ role: 'system', content: 'same prompt' }];
    const b: OpenAI.ChatCompletionMessageParam[] = [{ role: 'system', content: 'same prompt' }];
    await talk(a, 'task A');
    await talk(b, 'task B');
    await talk(a, 'more A');
    await talk(b, 'more B');
    await talk(a, 'last A');
    const ids = fixture.runIds();
    expect(ids).toHaveLength(2);
    const summaries = ids.map((id) => fixture!.runtime.runs.get(id)!);
    expect(summaries.map((s) => [s.task, s.steps])).toEqual([
      ['task A', 3],
      ['task B', 2],
    ]);
    expect(summaries[0]!.agent).toBe('external: openai-js');
  });

  it('ends an idle run, and the next call of the same name starts a new one', async () => {
    fixture = await startGatewayFixture(echo, { idleMs: 200 });
    const client = new OpenAI({
      baseURL: fixture.gateway.url,
      apiKey: fixture.gateway.token,
      defaultHeaders: { 'X-Workbench-Run': 'nightly job' },
    });
    const ask = () =>
      client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'go' }],
      });
    await ask();
    await ask();
    const [first] = fixture.runIds();
    await waitFor(
      () => fixture!.eventsOf(first!).some((e) => e.type === 'run.finished'),
      'the idle end',
    );
    await ask();
    expect(fixture.runIds()).toHaveLength(2);
    expect(fixture.runtime.runs.get(first!)).toMatchObject({
      agent: 'external: nightly job',
      steps: 2,
    });
  });
});
