/**
 * The scripted server is checked with the real `openai` client, so what passes here is
 * what the SDK accepts from (and sends to) a real OpenAI-compatible endpoint.
 */
import OpenAI, { APIError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { parseScenarioFile, scenarioScript } from './scenario-script';
import {
  startScriptedServer,
  type ScriptedOpenAiServer,
  type ServerScript,
} from './scripted-openai-server';
import { reply } from './scripted-replies';

let server: ScriptedOpenAiServer | null = null;

afterEach(async () => {
  await server?.close();
  server = null;
});

async function clientFor(script: ServerScript, apiKey = 'sk-test') {
  const started = await startScriptedServer(script);
  server = started.server;
  return new OpenAI({ baseURL: started.baseUrl, apiKey, maxRetries: 0, logLevel: 'off' });
}

const task = [{ role: 'user' as const, content: 'say hi' }];

describe('scripted OpenAI server', () => {
  it('serves a scenario file’s pages and points replies at them with {{origin}}', async () => {
    const file = parseScenarioFile(
      JSON.stringify({
        pages: { demo: '<title>Demo</title><a href="/x">x</a>' },
        scenarios: [
          {
            name: 's',
            turns: [
              {
                toolCalls: [
                  { name: 'browser', arguments: { url: '{{origin}}/_scripted/pages/demo' } },
                ],
              },
            ],
          },
        ],
      }),
    );
    const started = await startScriptedServer(scenarioScript(file), {
      apiKey: 'sk-test',
      ...(file.pages ? { pages: file.pages } : {}),
    });
    server = started.server;
    const client = new OpenAI({ baseURL: started.baseUrl, apiKey: 'sk-test', maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'm', messages: task });
    const call = completion.choices[0]!.message.tool_calls![0]!;
    const url = (
      JSON.parse(call.type === 'function' ? call.function.arguments : '{}') as {
        url: string;
      }
    ).url;
    expect(url).toBe(`${server.origin}/_scripted/pages/demo`);
    // a page needs no key (a browser sends none); an unknown one is a 404
    const page = await fetch(url);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toBe('<title>Demo</title><a href="/x">x</a>');
    expect((await fetch(`${server.origin}/_scripted/pages/nope`)).status).not.toBe(200);
    expect(() =>
      parseScenarioFile(JSON.stringify({ pages: { '../x': '' }, scenarios: [] })),
    ).toThrow();
  });

  it('answers a non-streaming request and records what was sent', async () => {
    const client = await clientFor([{ content: 'hi from {{model}}' }]);
    const completion = await client.chat.completions.create({ model: 'gpt-x', messages: task });
    expect(completion.choices[0]?.message.content).toBe('hi from gpt-x');
    expect(completion.model).toBe('gpt-x');
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(0);
    const recorded = server!.requests[0]!;
    expect(recorded.model).toBe('gpt-x');
    expect(recorded.messages).toEqual(task);
    expect(recorded.headers['authorization']).toBe('Bearer sk-test');
  });

  it('streams content and tool calls in fragments that the SDK reassembles', async () => {
    const args = { status: 'success', note: 'x'.repeat(100) };
    const client = await clientFor([
      {
        content: 'working on it',
        toolCalls: [{ name: 'terminate', arguments: args }],
        chunkSize: 5,
      },
    ]);
    const stream = await client.chat.completions.create({
      model: 'm',
      messages: task,
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: { name: 'terminate', parameters: {} } }],
    });
    let text = '';
    let argText = '';
    let finish: string | null = null;
    let usage: unknown = null;
    let pieces = 0;
    for await (const chunk of stream) {
      pieces += 1;
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices[0];
      if (!choice) continue;
      text += choice.delta.content ?? '';
      argText += choice.delta.tool_calls?.[0]?.function?.arguments ?? '';
      finish = choice.finish_reason ?? finish;
    }
    expect(text).toBe('working on it');
    expect(JSON.parse(argText)).toEqual(args);
    expect(finish).toBe('tool_calls');
    expect(usage).toMatchObject({ completion_tokens: expect.any(Number) });
    expect(pieces).toBeGreaterThan(10);
  });

  it('rejects an assistant tool call with no tool message, with the real 400 text', async () => {
    const client = await clientFor([reply.text('never')]);
    const error = await client.chat.completions
      .create({
        model: 'm',
        messages: [
          ...task,
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_a', type: 'function', function: { name: 'f', arguments: '{}' } },
            ],
          },
          { role: 'user', content: 'next' },
        ],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(400);
    expect((error as APIError).message).toContain(
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_a",
    );
    expect(server!.answered).toHaveLength(0);
  });

  it('rejects a tool message that answers no preceding tool call', async () => {
    const client = await clientFor([reply.text('never')]);
    const error = (await client.chat.completions
      .create({
        model: 'm',
        messages: [...task, { role: 'tool', tool_call_id: 'call_zz', content: 'x' }],
      })
      .catch((e: unknown) => e)) as APIError;
    expect(error.status).toBe(400);
    expect(error.message).toContain(
      "messages with role 'tool' must be a response to a preceeding message with 'tool_calls'",
    );
  });

  it('accepts a correctly paired tool exchange', async () => {
    const client = await clientFor([reply.text('done')]);
    const completion = await client.chat.completions.create({
      model: 'm',
      messages: [
        ...task,
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } },
            { id: 'b', type: 'function', function: { name: 'g', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'b', content: '1' },
        { role: 'tool', tool_call_id: 'a', content: '2' },
      ],
    });
    expect(completion.choices[0]?.message.content).toBe('done');
  });

  it('sends scripted HTTP errors with their headers', async () => {
    const client = await clientFor([reply.rateLimited('7')]);
    const error = (await client.chat.completions
      .create({ model: 'm', messages: task })
      .catch((e: unknown) => e)) as APIError;
    expect(error.status).toBe(429);
    expect(error.headers?.get('retry-after')).toBe('7');
    expect(error.code).toBe('rate_limit_exceeded');
  });

  it('records a hung request as aborted by the client', async () => {
    const client = await clientFor([{ hang: true }]);
    const controller = new AbortController();
    const pending = client.chat.completions
      .create({ model: 'm', messages: task }, { signal: controller.signal })
      .catch((e: unknown) => e);
    await waitFor(() => server!.requests.length === 1);
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    await waitFor(() => server!.requests[0]?.closedAt !== undefined);
    expect(server!.requests[0]?.clientAborted).toBe(true);
  });

  it('cuts a stream mid-way, sends an SSE error event, or malformed SSE JSON', async () => {
    const client = await clientFor([
      { content: 'partial answer here', cutAfterChunks: 2, chunkSize: 4 },
      { content: 'abc', sseError: { message: 'upstream overloaded' } },
      { content: 'abc', malformedSse: {} },
    ]);
    const drain = async () => {
      const stream = await client.chat.completions.create({
        model: 'm',
        messages: task,
        stream: true,
      });
      for await (const _chunk of stream) void _chunk;
    };
    const cut = await drain().catch((e: unknown) => e);
    expect(cut).toBeInstanceOf(Error);
    expect(cut).not.toBeInstanceOf(APIError);
    const sse = (await drain().catch((e: unknown) => e)) as APIError;
    expect(sse).toBeInstanceOf(APIError);
    expect(sse.status).toBeUndefined();
    expect(sse.message).toContain('upstream overloaded');
    const malformed = await drain().catch((e: unknown) => e);
    expect(malformed).toBeInstanceOf(SyntaxError);
  });

  it('serves an HTML body, empty choices and the model list', async () => {
    const client = await clientFor([{ html: true }, { emptyChoices: true }]);
    const html: unknown = await client.chat.completions.create({ model: 'm', messages: task });
    expect(typeof html).toBe('string');
    const empty = await client.chat.completions.create({ model: 'm', messages: task });
    expect(empty.choices).toEqual([]);
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['scripted-model']);
  });

  it('says so when a list script runs out', async () => {
    const client = await clientFor([]);
    const error = (await client.chat.completions
      .create({ model: 'm', messages: task })
      .catch((e: unknown) => e)) as APIError;
    expect(error.status).toBe(400);
    expect(error.message).toContain('script has 0 replies');
  });
});

describe('scenario files', () => {
  const file = parseScenarioFile(
    JSON.stringify({
      default: 'fallback',
      scenarios: [
        {
          name: 'flaky',
          match: ['flaky'],
          turns: [
            {
              attempts: [
                { error: { status: 429, headers: { 'retry-after': '0' } } },
                { content: 'ok' },
              ],
            },
            { content: 'second turn {{turn}}' },
          ],
        },
        { name: 'model', match: '/^which model/i', turns: [{ content: 'I am {{model}}' }] },
        { name: 'by-prompt', matchSystem: 'in two steps', turns: [{ content: 'prompt B' }] },
        { name: 'fallback', turns: [{ content: 'fallback' }] },
      ],
    }),
  );

  it('selects a scenario by keyword or regex, and falls back to the default', async () => {
    const client = await clientFor(scenarioScript(file));
    const ask = async (content: string, model = 'm') =>
      (await client.chat.completions.create({ model, messages: [{ role: 'user', content }] }))
        .choices[0]?.message.content;
    expect(await ask('Which model are you?', 'gpt-4o-mini')).toBe('I am gpt-4o-mini');
    expect(await ask('anything else')).toBe('fallback');
  });

  it("selects a scenario by the system message (an agent's own prompt)", async () => {
    const client = await clientFor(scenarioScript(file));
    const ask = async (system: string) =>
      (
        await client.chat.completions.create({
          model: 'm',
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: 'the same task' },
          ],
        })
      ).choices[0]?.message.content;
    expect(await ask('You answer IN TWO STEPS.')).toBe('prompt B');
    expect(await ask('You answer at once.')).toBe('fallback');
  });

  it('advances attempts only on a retry of the same request, and turns by history', async () => {
    const client = await clientFor(scenarioScript(file));
    const messages = [{ role: 'user' as const, content: 'a flaky task' }];
    const first = await client.chat.completions
      .create({ model: 'm', messages })
      .catch((e: unknown) => e);
    expect((first as APIError).status).toBe(429);
    const retry = await client.chat.completions.create({ model: 'm', messages });
    expect(retry.choices[0]?.message.content).toBe('ok');
    const next = await client.chat.completions.create({
      model: 'm',
      messages: [
        ...messages,
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'go' },
      ],
    });
    expect(next.choices[0]?.message.content).toBe('second turn 2');
  });

  it('reports a bad scenario file with the path of the bad key', () => {
    expect(() =>
      parseScenarioFile('{"scenarios": [{"name": "x", "turns": [{"contnt": "hi"}]}]}', 'f.json'),
    ).toThrow(/^f\.json: scenarios\.0\.turns\.0/);
    expect(() => parseScenarioFile('{', 'f.json')).toThrow(/not valid JSON/);
    expect(() =>
      parseScenarioFile('{"default": "nope", "scenarios": [{"name": "x", "turns": [{}]}]}'),
    ).toThrow(/no scenario is named "nope"/);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
