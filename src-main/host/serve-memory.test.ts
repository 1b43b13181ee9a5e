/**
 * Issue 27, `serve` memory over many runs: a finished run leaves nothing of its own in
 * the long-lived parts of `workbench serve` (the scripted model server the demo and
 * `api_type = "scripted"` share, the run manager, the push path to a connected client).
 * Real runtime, real config-driven agent (toolcall on a scripted scenario without
 * pauses), real WebSocket host and the renderer's own client.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunEvent } from '@shared/events';
import { createWsApi } from '../../src-renderer/api/ws-api';
import { createRuntime } from '../runtime/runtime';
import { startWsHost } from './ws/ws-host';

const RUNS = 5;
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** `global.gc` without starting vitest with --expose-gc (a new context sees the flag). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

describe('serve after many runs', () => {
  it("keeps none of a finished run's model requests, events or run state", async () => {
    const home = mkdtempSync(join(tmpdir(), 'wb-serve-memory-'));
    writeFileSync(join(home, 'config.toml'), fastToolcallConfig);
    const runtime = createRuntime({ home, env: {}, sweepAtStart: false });
    const host = await startWsHost({
      runtime,
      context: { dockerProbe: async () => ({ isAvailable: false, error: 'not probed' }) },
    });
    const api = createWsApi(
      `ws://127.0.0.1:${host.port}/ws?token=${host.token}`,
      WebSocket as never,
    );
    cleanup = async () => {
      api.close();
      await host.close();
      await runtime.dispose();
    };
    const scenario = JSON.parse(
      readFileSync(join(__dirname, '../../resources/demo/toolcall.json'), 'utf8'),
    ) as { scenarios: { turns: { delayMs?: number }[] }[] };
    for (const s of scenario.scenarios) for (const turn of s.turns) delete turn.delayMs;
    writeFileSync(join(home, 'fast.json'), JSON.stringify(scenario));

    // Only weak references to what the client and the runtime's listeners saw.
    const seen: WeakRef<RunEvent>[] = [];
    let finished = 0;
    api.onRunEvents((batch) => {
      for (const event of batch) {
        seen.push(new WeakRef(event));
        if (event.type === 'run.finished') finished++;
      }
    });
    const stop = runtime.runs.onEvent((event) => void seen.push(new WeakRef(event)));
    for (let i = 0; i < RUNS; i++) {
      const { runId } = await api.startRun({ task: `task ${i}`, agent: 'toolcall' });
      await until(() => finished === i + 1);
      expect(runtime.runs.isRunning(runId)).toBe(false);
      expect(runtime.runs.get(runId)?.state).toBe('FINISHED');
    }
    stop();

    // the scripted server answered every request and kept none of them
    const base = await runtime.services.scripted.serverUrl({ scenario: 'fast.json' }, 'toolcall');
    const recorded = (await (
      await fetch(`${base.replace(/\/v1$/, '')}/_scripted/requests`)
    ).json()) as unknown[];
    expect(recorded).toEqual([]);

    // nothing still holds the runs' events (the push batcher, listeners, caches by run)
    expect(seen.length).toBeGreaterThan(RUNS * 4);
    await new Promise((r) => setTimeout(r, 50)); // the batcher's frame, the ws frames
    collectGarbage();
    const alive = seen.filter((ref) => ref.deref() !== undefined).length;
    expect(alive).toBe(0);
  });
});

const fastToolcallConfig = '[llm]\nmodel = "fast"\napi_type = "scripted"\nscenario = "fast.json"\n';

async function until(probe: () => boolean, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!probe()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting for the run');
    await new Promise((r) => setTimeout(r, 10));
  }
}
