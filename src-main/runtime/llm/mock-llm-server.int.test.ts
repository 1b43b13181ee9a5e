/**
 * A third-party OpenAI-compatible mock server from npm, `@dwmkerr/mock-llm`, run as its
 * own process (issue 16 item 5). When it streams it sends only the text (tool calls are
 * dropped, finish_reason "stop") and it sends errors inside a 200 stream as
 * `data: {"error": ...}`. Through the real client and a real agent run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEventPayload } from '@shared/events';
import { ToolCallAgent } from '../loop/toolcall-agent';
import { echoTool } from '../loop/testing/agent-harness';
import { createTerminateTool } from '../tools/terminate';
import { ToolRegistry } from '../tools/tool-registry';
import type { RetryNotice } from './llm-client';
import { LlmError } from './llm-errors';
import { OpenAiLlm } from './openai-llm';
import { FAST_RETRY, testProfile } from './testing/profiles';

const MAIN = createRequire(import.meta.url).resolve('@dwmkerr/mock-llm/dist/main.js');

const completion = (message: string) =>
  `{"id": "chatcmpl-1", "object": "chat.completion", "model": "mock", "choices": [{"index": 0, "message": ${message}, "finish_reason": "stop"}]}`;
const toolCall = (name: string, args: string) =>
  completion(
    `{"role": "assistant", "content": "", "tool_calls": [{"id": "call_{{timestamp}}", "type": "function", "function": {"name": "${name}", "arguments": ${JSON.stringify(args)}}}]}`,
  );
const error = (status: number, code: string, message: string) => ({
  status,
  content: `{"error": {"message": "${message}", "type": "${code}", "code": "${code}"}}`,
});

/** mock-llm's rules: the last matching one wins. */
const CONFIG = {
  rules: [
    {
      path: '/v1/chat/completions',
      method: 'POST',
      match: '@',
      response: {
        status: 200,
        content: completion(
          '{"role": "assistant", "content": "echo: {{jmes request body.messages[-1].content}}"}',
        ),
      },
    },
    {
      path: '/v1/chat/completions',
      match: "contains(body.messages[0].content, 'use the echo tool')",
      response: { status: 200, content: toolCall('echo', '{"text": "from mock-llm"}') },
    },
    {
      path: '/v1/chat/completions',
      match:
        "contains(body.messages[0].content, 'use the echo tool') && length(body.messages[?role=='tool']) > `0`",
      response: { status: 200, content: toolCall('terminate', '{"status": "success"}') },
    },
    {
      path: '/v1/chat/completions',
      match: "contains(body.messages[0].content, 'bad key')",
      response: error(401, 'invalid_api_key', 'Incorrect API key provided'),
    },
    {
      path: '/v1/chat/completions',
      match: "contains(body.messages[0].content, 'server error')",
      response: error(500, 'server_error', 'The server had an error'),
    },
    {
      path: '/v1/chat/completions',
      match: "contains(body.messages[0].content, 'rate limited once')",
      sequence: 0,
      response: error(429, 'rate_limit_exceeded', 'Rate limit reached'),
    },
    {
      path: '/v1/chat/completions',
      match: "contains(body.messages[0].content, 'out of credit')",
      response: error(429, 'insufficient_quota', 'You exceeded your current quota'),
    },
  ],
  streaming: { chunkSize: 8, chunkIntervalMs: 5 },
};

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let child: ChildProcess;
let baseUrl: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wb-mock-llm-'));
  const config = join(dir, 'mock-llm.yaml');
  // YAML is a superset of JSON: mock-llm reads this file as it is
  writeFileSync(config, JSON.stringify(CONFIG));
  const port = await freePort();
  child = spawn(process.execPath, [MAIN, '--config', config], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mock-llm did not start: ${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/server running on/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`mock-llm exited with ${code}: ${output}`)));
  });
  baseUrl = `http://127.0.0.1:${port}/v1`;
});

afterAll(() => {
  child?.kill();
});

const llm = (overrides = {}) =>
  new OpenAiLlm(testProfile(baseUrl, { model: 'mock', ...overrides }), { retry: FAST_RETRY });

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  const caught = await promise.then(
    () => new Error('expected the call to fail'),
    (e: unknown) => e,
  );
  expect(caught).toBeInstanceOf(LlmError);
  return caught as LlmError;
}

describe('@dwmkerr/mock-llm (a third-party OpenAI-compatible mock server)', () => {
  it('streams a text answer', async () => {
    const deltas: string[] = [];
    const response = await llm().complete(
      { messages: [{ role: 'user', content: 'hello there' }] },
      { onDelta: (t) => deltas.push(t) },
    );
    expect(response.content).toBe('echo: hello there');
    expect(deltas.length).toBeGreaterThan(1);
  });

  it('an agent runs the tool calls its stream drops, and terminates', async () => {
    const events: RunEventPayload[] = [];
    const echoed: string[] = [];
    const agent = new ToolCallAgent(
      { name: 'toolcall', maxSteps: 5 },
      { llm: llm(), tools: new ToolRegistry([echoTool(echoed), createTerminateTool()]) },
      { emit: (e) => events.push(e), runId: 'mock-llm' },
    );
    const result = await agent.run('Please use the echo tool.');
    // before: an empty streamed answer twice, "finished" having done nothing
    expect(result).toMatchObject({ outcome: 'finished', terminateStatus: 'success' });
    expect(echoed).toEqual(['from mock-llm']);
    expect(events.some((e) => e.type === 'llm.retried' && /without streaming/.test(e.error))).toBe(
      true,
    );
  });

  it('a 401 sent inside the 200 stream says the key was rejected, without retrying', async () => {
    const error = await failure(
      llm({ maxRetries: 3 }).complete({ messages: [{ role: 'user', content: 'bad key' }] }),
    );
    expect(error.kind).toBe('AUTH');
    expect(error.message).toMatch(/rejected the API key.*Incorrect API key provided/);
  });

  it('a 500 sent inside the 200 stream is retried, then reported as a provider failure', async () => {
    const notices: RetryNotice[] = [];
    const error = await failure(
      llm({ maxRetries: 2 }).complete(
        { messages: [{ role: 'user', content: 'server error' }] },
        { onRetry: (n) => notices.push(n) },
      ),
    );
    expect(error.kind).toBe('RETRYABLE');
    expect(error.message).toMatch(/The provider failed \(500\): The server had an error/);
    expect(notices.map((n) => n.status)).toEqual([500, 500]);
  });

  it('a 429 sent inside the 200 stream is retried and the next attempt answers', async () => {
    const notices: RetryNotice[] = [];
    const response = await llm().complete(
      { messages: [{ role: 'user', content: 'rate limited once' }] },
      { onRetry: (n) => notices.push(n) },
    );
    expect(response.content).toBe('echo: rate limited once');
    expect(notices[0]).toMatchObject({ status: 429, error: expect.stringMatching(/Rate limited/) });
  });

  it('a 429 insufficient_quota inside the 200 stream is a billing error, not retried (issue 26 item 9)', async () => {
    const notices: RetryNotice[] = [];
    const error = await failure(
      llm({ maxRetries: 3 }).complete(
        { messages: [{ role: 'user', content: 'out of credit' }] },
        { onRetry: (n) => notices.push(n) },
      ),
    );
    expect(error.kind).toBe('QUOTA');
    expect(error.message).toMatch(/out of quota or credit/);
    expect(notices).toEqual([]);
  });
});
