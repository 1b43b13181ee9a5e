/**
 * The playground's requests over the real WebSocket transport (the "Done when" round trip
 * with a real model run is playground.int.test.ts): a model call opens as the body the
 * inspector's raw view shows, with the reply the run got; a send goes to the profile's
 * server from the host and streams its text as pushes; what cannot be sent or saved is
 * refused with the reason and the fix, and the run's history is never written.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { requestsOfRun } from '@shared/model-request';
import type { PlaygroundDelta } from '@shared/ipc';
import { startScriptedServer } from '../runtime/llm/testing/scripted-openai-server';
import { cleanups, collect, finishedOf, serve, until } from './testing/ws-contract-fixture';

const KEY = 'sk-contract-playground-key';

async function recordedRun(configText: string) {
  const served = await serve(configText);
  const events = collect(served.api);
  const { runId } = await served.api.startRun({ task: 'steps: 2', agent: 'toolcall' });
  await until(() => finishedOf(events, runId));
  const mine = events.filter((e) => e.runId === runId);
  return { ...served, runId, events: mine };
}

describe('contract over WebSocket: playground:*', () => {
  it('playground:open gives the exact request of a model call and the reply it got', async () => {
    const { api, runId, events } = await recordedRun('');
    const requests = requestsOfRun(events);
    const second = requests[1]!;
    const opened = await api.openPlayground({ runId, seq: second.event.seq });
    expect(opened).toMatchObject({
      runId,
      seq: second.event.seq,
      agent: 'toolcall',
      step: 2,
      body: second.body,
      recordedReply: {
        content: 'done',
        toolCalls: [{ function: { name: 'terminate' } }],
        finishReason: expect.any(String) as string,
      },
      profile: 'default',
    });
    expect(opened.profiles.map((p) => p.name)).toEqual(['default']);
    // not a model call, and no such run: not_found naming what there is
    const notACall = events.find((e) => e.type === 'run.started')!.seq;
    await expect(api.openPlayground({ runId, seq: notACall })).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringContaining(`its model calls are events ${requests[0]!.event.seq}`),
    });
    await expect(api.openPlayground({ runId: 'no-such-run', seq: 1 })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('playground:send streams each sample from the profile; the run is not written', async () => {
    const { server, baseUrl } = await startScriptedServer(
      () => ({ content: 'streamed reply in pieces', chunkSize: 5 }),
      { apiKey: KEY },
    );
    cleanups.push(() => server.close());
    const { api, runId, events, runtime } = await recordedRun(
      `[llm.remote]\nmodel = "remote-model"\nbase_url = "${baseUrl}"\napi_key = "${KEY}"\n`,
    );
    const log = runtime.runs.history.logPath!(runId);
    const before = readFileSync(log);
    const deltas: PlaygroundDelta[] = [];
    api.onPlaygroundDelta((d) => deltas.push(d));
    const opened = await api.openPlayground({
      runId,
      seq: requestsOfRun(events)[0]!.event.seq,
    });
    expect(opened.profiles).toEqual([
      { name: 'default', model: expect.any(String) as string },
      { name: 'remote', model: 'remote-model' },
    ]);
    const body = { ...opened.body, model: 'remote-model' };
    const result = await api.sendPlayground({ sendId: 'a1', body, profile: 'remote', samples: 2 });
    expect(result.samples).toMatchObject([
      { index: 0, content: 'streamed reply in pieces', finishReason: 'stop' },
      { index: 1, content: 'streamed reply in pieces', finishReason: 'stop' },
    ]);
    expect(result.samples[0]!.usage?.completion).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(2);
    const { stream, stream_options: _o, ...sent } = server.requests[0]!.body;
    expect(stream).toBe(true);
    expect(sent).toEqual(body);
    await until(() => deltas.filter((d) => d.done).length === 2);
    expect(
      deltas
        .filter((d) => d.sample === 0)
        .map((d) => d.text ?? '')
        .join(''),
    ).toBe('streamed reply in pieces');
    expect(deltas.filter((d) => d.sample === 0 && d.text).length).toBeGreaterThan(1);
    expect(readFileSync(log).equals(before)).toBe(true);
  });

  it("a server's error is the sample's, without the key; unsendable profiles are refused with the fix", async () => {
    const { server, baseUrl } = await startScriptedServer(
      () => ({ error: { status: 401, body: { error: { message: `bad key ${KEY}` } } } }),
      {},
    );
    cleanups.push(() => server.close());
    const { api, runId, events } = await recordedRun(
      [
        `[llm.remote]\nmodel = "m"\nbase_url = "${baseUrl}"\napi_key = "${KEY}"`,
        `[llm.nokey]\nmodel = "m"\nbase_url = "${baseUrl}"`,
        '[llm.demo]\nmodel = "m"\napi_type = "scripted"',
      ].join('\n'),
    );
    const { body } = await api.openPlayground({
      runId,
      seq: requestsOfRun(events)[0]!.event.seq,
    });
    const failed = await api.sendPlayground({ sendId: 'e', body, profile: 'remote', samples: 1 });
    expect(failed.samples[0]!.error).toMatch(/401/);
    expect(JSON.stringify(failed)).not.toContain(KEY);
    await expect(
      api.sendPlayground({ sendId: 'e', body, profile: 'nokey', samples: 1 }),
    ).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('no API key') });
    await expect(
      api.sendPlayground({ sendId: 'e', body, profile: 'demo', samples: 1 }),
    ).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('scripted') });
    await expect(
      api.sendPlayground({ sendId: 'e', body, profile: 'gone', samples: 1 }),
    ).rejects.toMatchObject({ code: 'invalid_input', message: /no profile \[llm\.gone\]/ });
  });

  it('playground:save-prompt: a run without a recorded definition has no agent to save into', async () => {
    const { api, runId } = await recordedRun('');
    await expect(
      api.savePlaygroundPrompt({ runId, systemPrompt: 'New prompt.' }),
    ).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('recorded no agent definition'),
    });
  });
});
