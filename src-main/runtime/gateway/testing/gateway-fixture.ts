/**
 * A gateway in front of the project's scripted OpenAI-compatible server, in a runtime
 * with its own home, for the tests that point real agent frameworks at it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunEvent } from '@shared/events';
import { createRuntime, type Runtime } from '../../runtime';
import {
  ScriptedOpenAiServer,
  type ScriptedServerReply,
  type ServerScript,
} from '../../llm/testing/scripted-openai-server';
import { startGateway, type Gateway, type GatewayStartOptions } from '../gateway';

export const UPSTREAM_KEY = 'sk-upstream-secret-key-0123456789';

export interface GatewayFixture {
  runtime: Runtime;
  gateway: Gateway;
  upstream: ScriptedOpenAiServer;
  home: string;
  /** the events of every run the gateway recorded, by run id, in order */
  eventsOf(runId: string): RunEvent[];
  /** the gateway's runs in the history, oldest first */
  runIds(): string[];
  /** another gateway on the same runtime (a replay, a fork) */
  restart(options: GatewayStartOptions): Promise<Gateway>;
  close(): Promise<void>;
}

export async function startGatewayFixture(
  script: ServerScript | ScriptedServerReply[],
  options: GatewayStartOptions = {},
  /** more of config.toml (a `[sandbox]` section) */
  moreConfig = '',
): Promise<GatewayFixture> {
  const home = mkdtempSync(join(tmpdir(), 'wb-gateway-'));
  const upstream = new ScriptedOpenAiServer(script, { apiKey: UPSTREAM_KEY });
  const baseUrl = await upstream.start();
  writeFileSync(
    join(home, 'config.toml'),
    `[llm]\nmodel = "gpt-4o-mini"\nbase_url = "${baseUrl}"\napi_key = "${UPSTREAM_KEY}"\n${moreConfig}`,
    { mode: 0o600 },
  );
  const runtime = createRuntime({ home, sweepAtStart: false, env: {} });
  let gateway = await startGateway(runtime, options);
  const gateways = [gateway];
  return {
    runtime,
    get gateway() {
      return gateway;
    },
    upstream,
    home,
    eventsOf: (runId) => runtime.runs.history.read(runId)?.events ?? [],
    runIds: () =>
      runtime.runs
        .list()
        .filter((s) => s.agent.startsWith('external: '))
        .sort((a, b) => a.startedAt - b.startedAt || a.runId.localeCompare(b.runId))
        .map((s) => s.runId),
    async restart(next) {
      await gateway.close();
      gateway = await startGateway(runtime, next);
      gateways.push(gateway);
      return gateway;
    },
    async close() {
      for (const g of gateways) await g.close();
      await runtime.dispose();
      await upstream.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Waits until `check` holds (polling), or fails with `what`. */
export async function waitFor(
  check: () => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
