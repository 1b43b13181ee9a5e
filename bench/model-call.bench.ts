/**
 * The model call against a local OpenAI-compatible server (issue 27, "a step against a
 * local server"): what one request costs us on top of the HTTP exchange itself. All in
 * one process with the project's scripted server, so every figure pays the same server.
 *
 * - floor: a raw keep-alive POST of the same body (node:http, one Buffer) and reading the
 *   reply: what no client can beat;
 * - baseline: the `openai` SDK on Node's global fetch (undici), no wrapper of ours: the
 *   SDK-and-fetch path the runtime used before its own fetch (openai-fetch.ts);
 * - OpenAiLlm.complete, JSON and streamed: the runtime's client, watchdog, caps, usage;
 * - a whole agent step (ToolCallAgent + OpenAiLlm, JSON) with its events written to a run
 *   history (RunStore), the model server included.
 * Best of a few rounds (the machine is shared); the load average is printed with them.
 */
import { Agent, request as httpRequest } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { z } from 'zod';
import { OpenAiLlm } from '../src-main/runtime/llm/openai-llm';
import type { ChatRequest } from '../src-main/runtime/llm/llm-client';
import { ScriptedOpenAiServer } from '../src-main/runtime/llm/testing/scripted-openai-server';
import { testProfile } from '../src-main/runtime/llm/testing/profiles';
import { ToolCallAgent } from '../src-main/runtime/loop/toolcall-agent';
import { ToolRegistry } from '../src-main/runtime/tools/tool-registry';
import type { Tool } from '../src-main/runtime/tools/tool';
import { RunStore } from '../src-main/runtime/runs/run-store';
import { createEventStamper } from '../src-shared/events';
import { report, type BenchResult } from './report';

const CALLS = 2_000;
const ROUNDS = 3;

const request: ChatRequest = {
  messages: [
    { role: 'system', content: 'You are a benchmark agent. Answer with the echo tool.' },
    { role: 'user', content: 'benchmark task: call echo with a short text' },
  ],
  tools: [
    {
      type: 'function',
      function: {
        name: 'echo',
        description: 'echo',
        parameters: { type: 'object', properties: { text: { type: 'string' } } },
      },
    },
  ],
};

function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'n/a';
  }
}

/** Per call in ms: the best of ROUNDS rounds of `calls` calls each. */
async function perCall(fn: () => Promise<unknown>, calls = CALLS): Promise<number> {
  for (let i = 0; i < 200; i++) await fn(); // warm up the JIT and the connection
  let best = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    for (let i = 0; i < calls; i++) await fn();
    best = Math.min(best, (performance.now() - started) / calls);
  }
  return best;
}

function rawPost(url: URL, body: Buffer, agent: Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}/chat/completions`,
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          authorization: 'Bearer sk-test-key-0000',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          JSON.parse(Buffer.concat(chunks).toString('utf8'));
          resolve();
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function agentStepMs(baseUrl: string): Promise<number> {
  const home = mkdtempSync(join(tmpdir(), 'wb-bench-model-'));
  const store = new RunStore(join(home, 'runs'));
  const echo: Tool<{ text: string }> = {
    name: 'echo',
    description: 'echo',
    schema: z.object({ text: z.string() }),
    execute: async ({ text }) => ({ output: text }),
  };
  const steps = 500;
  let best = Infinity;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const runId = `bench-${round}-${Date.now()}`;
      const stamper = createEventStamper(runId);
      const agent = new ToolCallAgent(
        { name: 'bench', maxSteps: steps, maxMessages: 100 },
        {
          llm: new OpenAiLlm(testProfile(baseUrl, { stream: false })),
          tools: new ToolRegistry([echo]),
        },
        {
          emit: (payload) => {
            const event = stamper.stamp(payload);
            store.append(event, JSON.stringify(event));
          },
          runId,
        },
      );
      const started = performance.now();
      await agent.run('benchmark task');
      best = Math.min(best, (performance.now() - started) / steps);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  return best;
}

export async function modelCallBench(): Promise<BenchResult> {
  let lastBody: unknown = null;
  const server = new ScriptedOpenAiServer((req, i) => {
    lastBody = req.body;
    return { content: `step ${i}`, toolCalls: [{ name: 'echo', arguments: { text: `n${i}` } }] };
  });
  const baseUrl = await server.start();
  // the recorded requests would grow for ever
  const forget = setInterval(() => server.reset(), 200);
  try {
    const url = new URL(baseUrl);
    const json = new OpenAiLlm(testProfile(baseUrl, { stream: false }));
    const streamed = new OpenAiLlm(testProfile(baseUrl, { stream: true }));
    await json.complete(request);
    const sent = server.requests.at(-1)!.body;
    const body = Buffer.from(JSON.stringify(sent));
    const agent = new Agent({ keepAlive: true });
    const sdk = new OpenAI({ baseURL: baseUrl, apiKey: 'sk-test-key-0000', maxRetries: 0 });
    const sdkBody = sent as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;

    const load = loadAverage();
    const floor = await perCall(() => rawPost(url, body, agent));
    const sdkFetch = await perCall(() => sdk.chat.completions.create(sdkBody));
    const ours = await perCall(() => json.complete(request));
    const oursStreamed = await perCall(() => streamed.complete(request));
    const step = await agentStepMs(baseUrl);
    // a step sends its whole window (up to 100 messages): its floor is a POST of that body
    const stepBody = Buffer.from(JSON.stringify(lastBody));
    const stepFloor = await perCall(() => rawPost(url, stepBody, agent), 500);
    const loadAfter = loadAverage();
    agent.destroy();
    const x = (ms: number) => `${(ms / floor).toFixed(2)}× the floor`;
    return report(`model call against a local server (load ${load} → ${loadAfter})`, [
      { label: 'floor: raw keep-alive POST, same body', value: floor * 1000, unit: 'µs' },
      {
        label: 'baseline: openai SDK on global fetch',
        value: sdkFetch * 1000,
        unit: 'µs',
        note: x(sdkFetch),
      },
      { label: 'OpenAiLlm.complete (json)', value: ours * 1000, unit: 'µs', note: x(ours) },
      {
        label: 'OpenAiLlm.complete (streamed)',
        value: oursStreamed * 1000,
        unit: 'µs',
        note: x(oursStreamed),
      },
      {
        label: "floor: raw POST of a step's body",
        value: stepFloor * 1000,
        unit: 'µs',
        note: `${(stepBody.length / 1024).toFixed(1)} KiB, the window full`,
      },
      {
        label: 'agent step, json, history written',
        value: step * 1000,
        unit: 'µs',
        note: `${(step / stepFloor).toFixed(2)}× its floor; goal ≤ 800 µs and ≤ 2.5×`,
      },
    ]);
  } finally {
    clearInterval(forget);
    await server.close();
  }
}
