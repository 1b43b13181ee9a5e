import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedOpenAiServer } from '../llm/testing/scripted-openai-server';
import { testConnection } from './connection-test';
import type { LlmProfile } from './schema';

const KEY = 'sk-test-connection-0123456789';
let server: ScriptedOpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function profile(baseUrl: string, extra: Partial<LlmProfile> = {}): LlmProfile {
  return {
    name: 'default',
    model: 'scripted-model',
    baseUrl,
    apiKey: KEY,
    apiType: 'openai',
    apiVersion: '',
    maxTokens: 100,
    temperature: 1,
    maxInputTokens: 10_000,
    stream: true,
    timeoutMs: 10_000,
    maxRetries: 4,
    ...extra,
  };
}

describe('testConnection', () => {
  it('succeeds against a server that answers, with one request and no retries', async () => {
    server = new ScriptedOpenAiServer([{ content: 'ok' }], { apiKey: KEY });
    const result = await testConnection(profile(await server.start()));
    expect(result).toMatchObject({ ok: true, model: 'scripted-model' });
    expect(result.message).toMatch(/Connected/);
    expect(server.requests).toHaveLength(1);
  });

  it('says the key was refused on 401, without ever echoing the key', async () => {
    server = new ScriptedOpenAiServer([], { apiKey: 'sk-the-right-one-999' });
    const result = await testConnection(profile(await server.start()));
    expect(result).toMatchObject({ ok: false, status: 401 });
    expect(result.message).toMatch(/API key was refused/);
    expect(JSON.stringify(result)).not.toContain(KEY);
  });

  it('names a missing model (404), a dead port, and a server that is not OpenAI-compatible', async () => {
    server = new ScriptedOpenAiServer([{ error: { status: 404 } }]);
    const notFound = await testConnection(profile(await server.start()));
    expect(notFound).toMatchObject({ ok: false, status: 404 });
    expect(notFound.message).toMatch(/model "scripted-model"/);

    const port = server.port;
    await server.close();
    server = undefined;
    const refused = await testConnection(profile(`http://127.0.0.1:${port}/v1`));
    expect(refused.ok).toBe(false);
    expect(refused.message).toMatch(/connection refused|Could not connect/);

    const html = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>');
    });
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    try {
      const wrong = await testConnection(
        profile(`http://127.0.0.1:${(html.address() as AddressInfo).port}/`),
      );
      expect(wrong.ok).toBe(false);
      expect(wrong.message).toMatch(/base URL/);
    } finally {
      html.close();
    }
  });

  it('asks for a key before calling out when none is set', async () => {
    const result = await testConnection(profile('http://127.0.0.1:9/v1', { apiKey: '' }));
    expect(result).toMatchObject({ ok: false });
    expect(result.message).toMatch(/No API key/);
  });
});
