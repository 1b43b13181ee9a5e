/**
 * The playground end to end (issue 28 "Done when"): a user agent's run recorded against
 * the project's scripted OpenAI-compatible server with the real runtime, then, over the
 * real `workbench serve` WebSocket transport and the UI's own client, one of its model
 * calls opened, one message edited and sent with 3 samples: the server received 3
 * requests whose bodies equal the edited body, the text streamed as `playground:delta`
 * pushes, the API key appeared in no answer or push, and the run's history file is byte
 * for byte what it was. Then the edited system prompt is saved into the agent as its
 * next version, and a built-in agent's prompt only into a copy.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunEvent } from '@shared/events';
import type { PlaygroundDelta } from '@shared/ipc';
import { createWsApi } from '../../src-renderer/api/ws-api';
import { createRuntime } from '../runtime/runtime';
import { ScriptedOpenAiServer } from '../runtime/llm/testing/scripted-openai-server';
import { listVersions } from '../runtime/agents/definitions/agent-store';
import { startWsHost } from './ws/ws-host';

const KEY = `sk-play-${randomUUID()}`;
const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function until<T>(probe: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** What the client sent, less the transport's own options (as exact-request tests do). */
function sentBody(body: Record<string, unknown>): Record<string, unknown> {
  const { stream: _s, stream_options: _o, ...rest } = body;
  return rest;
}

describe('playground over the contract', () => {
  it('re-sends a recorded request with one edited message and 3 samples; the run is unchanged', async () => {
    let sample = 0;
    const server = new ScriptedOpenAiServer(
      (request) => {
        if (JSON.stringify(request.messages).includes('EDITED')) {
          sample += 1;
          return { content: `sample ${sample}: a longer answer to stream in pieces`, chunkSize: 6 };
        }
        // the run: one answer, then the end (after the tool's result)
        return request.messages.some((m) => m.role === 'tool')
          ? { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] }
          : { toolCalls: [{ name: 'create_chat_completion', arguments: { response: 'Hi!' } }] };
      },
      { apiKey: KEY },
    );
    const baseUrl = await server.start();
    cleanups.push(() => server.close());
    const home = mkdtempSync(join(tmpdir(), 'wb-playground-'));
    writeFileSync(
      join(home, 'config.toml'),
      [
        '[llm]',
        'model = "gpt-play"',
        `base_url = "${baseUrl}"`,
        `api_key = "${KEY}"`,
        'max_retries = 0',
        'temperature = 0.4',
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
    mkdirSync(join(home, 'agents'));
    writeFileSync(
      join(home, 'agents', 'helper.toml'),
      [
        'name = "helper"',
        'tools = ["create_chat_completion", "terminate"]',
        'system_prompt = "You are {{agent_name}}. Be brief."',
        'next_step_prompt = "Next?"',
        '',
      ].join('\n'),
    );
    const runtime = createRuntime({ home, env: {}, sweepAtStart: false });
    const host = await startWsHost({
      runtime,
      context: { dockerProbe: async () => ({ isAvailable: false, error: 'not probed' }) },
    });
    const api = createWsApi(
      `ws://127.0.0.1:${host.port}/ws?token=${host.token}`,
      WebSocket as never,
    );
    cleanups.push(async () => {
      api.close();
      await host.close();
      await runtime.dispose();
    });
    const events: RunEvent[] = [];
    api.onRunEvents((batch) => events.push(...batch));
    const deltas: PlaygroundDelta[] = [];
    api.onPlaygroundDelta((delta) => deltas.push(delta));

    const { runId } = await api.startRun({ task: 'say hello', agentRef: 'helper' });
    await until(() => events.find((e) => e.runId === runId && e.type === 'run.finished'));
    const logFile = runtime.runs.history.logPath!(runId);
    const before = readFileSync(logFile);
    const runRequests = server.requests.length;
    expect(runRequests).toBe(2);

    // the second call: system, task, the first answer, its tool result, the nudge
    const second = events.filter((e) => e.runId === runId && e.type === 'llm.requested')[1]!;
    const opened = await api.openPlayground({ runId, seq: second.seq });
    expect(opened.body).toEqual(sentBody(server.requests[1]!.body));
    expect(opened).toMatchObject({
      agent: 'helper',
      step: 2,
      profile: 'default',
      profiles: [{ name: 'default', model: 'gpt-play' }],
      agentDefinition: { name: 'helper', source: 'home', version: 1 },
      recordedReply: { toolCalls: [{ function: { name: 'terminate' } }] },
    });
    expect(JSON.stringify(opened)).not.toContain(KEY);
    expect(JSON.stringify(opened)).not.toContain(baseUrl);

    // one message edited, as the editor does
    const messages = structuredClone(opened.body['messages']) as { content: string }[];
    messages[1]!.content = 'say hello EDITED';
    const edited = { ...opened.body, messages, temperature: 0.9 };
    const result = await api.sendPlayground({
      sendId: 'send-1',
      body: edited,
      profile: 'default',
      samples: 3,
    });
    expect(result.mode).toBe('requests');
    expect(result.samples.map((s) => s.error)).toEqual([undefined, undefined, undefined]);
    const received = server.requests.slice(runRequests);
    expect(received).toHaveLength(3);
    for (const request of received) {
      expect(request.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
      expect(sentBody(request.body)).toEqual(edited);
    }
    expect(result.samples.map((s) => s.content).sort()).toEqual([
      'sample 1: a longer answer to stream in pieces',
      'sample 2: a longer answer to stream in pieces',
      'sample 3: a longer answer to stream in pieces',
    ]);
    // streamed: several pieces per sample, then its end, all under the send's id
    await until(() => deltas.filter((d) => d.done).length === 3);
    for (const index of [0, 1, 2]) {
      const mine = deltas.filter((d) => d.sendId === 'send-1' && d.sample === index);
      expect(mine.filter((d) => d.text).length).toBeGreaterThan(2);
      expect(mine.map((d) => d.text ?? '').join('')).toBe(result.samples[index]!.content);
    }
    expect(JSON.stringify(result) + JSON.stringify(deltas)).not.toContain(KEY);

    // the run is unchanged, to the byte, and no run was added
    expect(readFileSync(logFile).equals(before)).toBe(true);
    expect((await api.listRuns({})).map((r) => r.runId)).toEqual([runId]);

    // a model server's refusal comes back per sample, without the key
    const refused = await api
      .sendPlayground({
        sendId: 'send-2',
        body: { ...edited, model: 'gpt-play' },
        profile: 'nope',
        samples: 1,
      })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'invalid_input', message: /no profile \[llm\.nope\]/ });

    // the system prompt saved into the agent: its next version
    const saved = await api.savePlaygroundPrompt({
      runId,
      systemPrompt: 'You are {{agent_name}}. Be very brief.',
    });
    expect(saved).toEqual({ name: 'helper', version: 2, isDuplicate: false });
    expect(readFileSync(join(home, 'agents', 'helper.toml'), 'utf8')).toContain('Be very brief.');
    expect(listVersions(home, 'helper').map((v) => v.version)).toEqual([1, 2]);
    // an unknown template variable is refused naming it; nothing is written
    await expect(
      api.savePlaygroundPrompt({ runId, systemPrompt: 'You are {{nobody}}.' }),
    ).rejects.toMatchObject({ code: 'invalid_input', message: /unknown template variable/ });
    expect(listVersions(home, 'helper')).toHaveLength(2);
    expect(readFileSync(logFile).equals(before)).toBe(true);
  });
});
