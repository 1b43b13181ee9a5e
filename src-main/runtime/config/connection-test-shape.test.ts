/**
 * Issue 26 item 8: `config test` / Test connection sends what a run sends. It sent
 * `max_tokens: 8` to reasoning models (which refuse it; runs correctly send
 * `max_completion_tokens`) and no tools, so an endpoint without tool calling passed. Against
 * the scripted server taught those servers' 400s (llm/testing/model-rules.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  ScriptedOpenAiServer,
  type ScriptedServerOptions,
} from '../llm/testing/scripted-openai-server';
import { requestParamsOf } from '../llm/request-params';
import { testConnection } from './connection-test';
import { parseConfigText } from './load';
import { resolveNamedProfile } from './resolve';
import type { LlmProfile } from './schema';

let server: ScriptedOpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: ScriptedServerOptions = {}): Promise<string> {
  server = new ScriptedOpenAiServer(() => ({ content: 'ok' }), options);
  return server.start();
}

function profile(baseUrl: string, extra: Partial<LlmProfile> = {}): LlmProfile {
  return {
    name: 'fast',
    model: 'gpt-4o',
    baseUrl,
    apiKey: 'sk-shape-0000',
    apiType: 'openai',
    apiVersion: '',
    maxTokens: 4096,
    temperature: 0.2,
    maxInputTokens: 10_000,
    stream: true,
    timeoutMs: 10_000,
    maxRetries: 4,
    ...extra,
  };
}

describe('Test connection asks what a run asks', () => {
  it('sends max_completion_tokens and no temperature to a reasoning model, and it passes', async () => {
    const result = await testConnection(profile(await start(), { model: 'o3-mini' }));
    expect(result, result.message).toMatchObject({ ok: true });
    const body = server!.requests[0]!.body;
    expect(body['max_completion_tokens']).toBeGreaterThan(0);
    expect(body).not.toHaveProperty('max_tokens');
    expect(body).not.toHaveProperty('temperature');
  });

  it('sends the tools and the temperature a run sends', async () => {
    const result = await testConnection(profile(await start()));
    expect(result.ok).toBe(true);
    const sent = server!.requests[0]!;
    expect(sent.tools).toHaveLength(1);
    expect(sent.toolChoice).toBe('auto');
    expect(sent.body['temperature']).toBe(0.2);
    expect(sent.body['max_tokens']).toBe(8);
  });

  it('an endpoint whose model has no tool calling fails the test and says why', async () => {
    const result = await testConnection(
      profile(await start({ modelsWithoutTools: ['gemma:2b'] }), { model: 'gemma:2b' }),
    );
    expect(result).toMatchObject({ ok: false, status: 400 });
    expect(result.message).toMatch(/does not accept tools \(400\).*choose a model with tool/);
  });

  it('a reasoning deployment the name does not reveal is told to set reasoning = true', async () => {
    const result = await testConnection(
      profile(await start({ reasoningModels: ['my-reasoner'] }), { model: 'my-reasoner' }),
    );
    expect(result).toMatchObject({ ok: false, status: 400 });
    expect(result.message).toMatch(
      /wants max_completion_tokens.*Set reasoning = true in \[llm\.fast\]/,
    );
  });

  it('reasoning = true makes such a deployment pass, and a run send the same shape', async () => {
    const baseUrl = await start({ reasoningModels: ['my-reasoner'] });
    const declared = profile(baseUrl, { model: 'my-reasoner', reasoning: true });
    const result = await testConnection(declared);
    expect(result, result.message).toMatchObject({ ok: true });
    expect(server!.requests[0]!.body).not.toHaveProperty('max_tokens');
    expect(requestParamsOf(declared)).toEqual({ max_completion_tokens: 4096 });
  });

  it('config.toml says it as `reasoning = true` in a profile', () => {
    const config = parseConfigText(
      '[llm]\nmodel = "gpt-4o"\n[llm.azure-o]\nmodel = "prod"\nreasoning = true\n',
      'config.toml',
    );
    expect(resolveNamedProfile(config, 'azure-o').reasoning).toBe(true);
    expect(resolveNamedProfile(config, null).reasoning).toBeUndefined();
    expect(() => parseConfigText('[llm]\nreasoning = "yes"\n', 'config.toml')).toThrow(
      /llm\.reasoning/,
    );
  });
});
