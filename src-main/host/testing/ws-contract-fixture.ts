/**
 * The contract tests' setup: a runtime with the test run factory behind a real
 * `workbench serve` WebSocket host, and the renderer's own WebSocket client talking to it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import WebSocket from 'ws';
import type { RunEvent } from '@shared/events';
import type { AppApi } from '@shared/ipc';
import { createWsApi } from '../../../src-renderer/api/ws-api';
import { createRuntime, type Runtime } from '../../runtime/runtime';
import { startWsHost } from '../ws/ws-host';
import { testRunFactory } from './test-runs';

/** Released after each test, last first. */
export const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

export async function serve(configText = '') {
  const home = mkdtempSync(join(tmpdir(), 'wb-contract-'));
  if (configText) writeFileSync(join(home, 'config.toml'), configText);
  // The factory needs the runtime it belongs to (for the human broker).
  const runtime: Runtime = createRuntime({
    home,
    factory: testRunFactory(() => runtime),
    env: {},
  });
  const host = await startWsHost({
    runtime,
    context: {
      dockerProbe: async () => ({ isAvailable: false, error: 'not probed in this test' }),
    },
  });
  const api = createWsApi(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, WebSocket as never);
  cleanups.push(async () => {
    api.close();
    await host.close();
    await runtime.dispose();
  });
  return { runtime, host, api, home };
}

export function collect(api: AppApi) {
  const events: RunEvent[] = [];
  api.onRunEvents((batch) => events.push(...batch));
  return events;
}

export async function until<T>(probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const finishedOf = (events: RunEvent[], runId: string) =>
  events.find((e) => e.runId === runId && e.type === 'run.finished');
