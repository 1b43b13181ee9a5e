/** A renderer that reconnects mid-run ends with exactly the events of the run. */
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunEvent } from '@shared/events';
import type { AppApi } from '@shared/ipc';
import { createRunSync } from '../../src-renderer/api/run-sync';
import { createWsApi, type WsApi } from '../../src-renderer/api/ws-api';
import { cleanups, collect, finishedOf, serve, until } from './testing/ws-contract-fixture';

describe('a UI that reloads mid-run', () => {
  it('gets a snapshot and continues from it without gaps or duplicates', async () => {
    const first = await serve();
    const live = collect(first.api);
    const { runId } = await first.api.startRun({ task: 'steps: 12 delay: 15', agent: 'toolcall' });
    await until(() =>
      live.some((e) => e.runId === runId && e.type === 'step.started' && e.step === 4),
    );

    // the "reloaded" UI: a new connection that joins half-way
    const reloaded: WsApi = createWsApi(
      `ws://127.0.0.1:${first.host.port}/ws?token=${first.host.token}`,
      WebSocket as never,
    );
    cleanups.push(() => reloaded.close());
    const applied: RunEvent[] = [];
    const sync = createRunSync(reloaded, (batch) => applied.push(...batch));
    const snapshot = await sync.open(runId);
    expect(snapshot.isLive).toBe(true);
    expect(snapshot.events.length).toBeGreaterThan(4);
    await until(() => finishedOf(live, runId));
    await until(() => finishedOf(applied, runId));
    const all = live.filter((e) => e.runId === runId);
    expect(applied).toEqual(all);
    expect(applied.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
    sync.dispose();
  });

  it('fills a gap in the pushes from the main process', async () => {
    const { api, runtime } = await serve();
    const events = collect(api);
    const { runId } = await api.startRun({ task: 'steps: 3', agent: 'toolcall' });
    await until(() => finishedOf(events, runId));
    const all = runtime.runs.snapshot(runId)?.events ?? [];
    // a transport that lost events 3..5
    let push: ((batch: RunEvent[]) => void) | undefined;
    const lossy: Pick<AppApi, 'getRun' | 'onRunEvents'> = {
      getRun: (input) => api.getRun(input),
      onRunEvents: (listener) => {
        push = listener;
        return () => {};
      },
    };
    const applied: RunEvent[] = [];
    createRunSync(lossy, (batch) => applied.push(...batch));
    push?.(all.slice(0, 2));
    push?.(all.slice(5));
    push?.(all.slice(1, 3)); // late duplicates
    await until(() => applied.length === all.length);
    expect(applied).toEqual(all);
  });
});
