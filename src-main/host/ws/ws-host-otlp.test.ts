/**
 * `workbench serve`'s OTLP receiver (docs/telemetry.md): a trace POSTed to /v1/traces
 * becomes a run, and an open page is told at once (`runs:changed` with its summary), as
 * for an imported run, so the received run shows in the list without a reload.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunSummary } from '@shared/domain/runs';
import type { WsServerFrame } from '@shared/ws-protocol';
import { createRuntime, type Runtime } from '../../runtime/runtime';
import { startWsHost, type WsHost } from './ws-host';

let host: WsHost | undefined;
let runtime: Runtime | undefined;
afterEach(async () => {
  await host?.close();
  await runtime?.dispose();
  host = undefined;
});

const TRACE_ID = '5b8efff798038103d269b633813fc60c';
const START_NS = 1_767_225_600_000_000_000n;

/** One GenAI chat span, in the OTLP/JSON mapping. */
function chatTrace(): string {
  const span = {
    traceId: TRACE_ID,
    spanId: 'eee19b7ec3c1b174',
    name: 'chat gpt-4o-mini',
    kind: 3,
    startTimeUnixNano: String(START_NS),
    endTimeUnixNano: String(START_NS + 250_000_000n),
    attributes: [
      { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
      { key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o-mini' } },
      { key: 'gen_ai.usage.input_tokens', value: { intValue: '12' } },
      { key: 'gen_ai.usage.output_tokens', value: { intValue: '3' } },
    ],
  };
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'elsewhere' } }] },
        scopeSpans: [{ scope: { name: 'test' }, spans: [span] }],
      },
    ],
  });
}

describe('ws host: the OTLP receiver', () => {
  it('pushes runs:changed to an open page when a trace becomes a run', async () => {
    runtime = createRuntime({ home: mkdtempSync(join(tmpdir(), 'wb-home-')) });
    host = await startWsHost({ runtime, port: 0 });
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const pushed = new Promise<RunSummary[]>((resolve) => {
      ws.on('message', (data) => {
        const frame = JSON.parse(data.toString()) as WsServerFrame;
        if (frame.kind === 'push' && frame.channel === 'runs:changed') resolve(frame.payload);
      });
    });

    const response = await fetch(`http://127.0.0.1:${host.port}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token}` },
      body: chatTrace(),
    });
    expect(response.status).toBe(200);

    const summaries = await Promise.race([
      pushed,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('no runs:changed push within 5 s')), 5_000),
      ),
    ]);
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatchObject({
      runId: expect.stringMatching(new RegExp(`-${TRACE_ID.slice(0, 8)}$`)),
    });
    expect(runtime.runs.history.summary(summaries[0]!.runId)).toBeDefined();
    ws.close();
  });
});
