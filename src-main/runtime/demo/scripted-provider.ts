/**
 * `api_type = "scripted"`: replays a scenario file through the project's own
 * OpenAI-compatible server (llm/testing/scripted-openai-server.ts), talked to by the
 * real model client, so a scripted run streams, counts tokens and fails exactly like a
 * real one. It is also the built-in demo: a profile with no API key runs the agent's
 * bundled scenario (resources/demo), whose tools are real.
 *
 * One server per scenario file, started on first use on 127.0.0.1 and closed with the
 * runtime. Turns are chosen from the request itself (stateless), so concurrent runs
 * share a server safely.
 */
import { existsSync } from 'node:fs';
import type { LlmProfile } from '../config/schema';
import type { ChatOptions, ChatRequest, ChatResponse, LlmClient } from '../llm/llm-client';
import { LazyOpenAiLlm } from '../llm/lazy-openai-llm';
import type { ScenarioFile } from '../llm/testing/scenario-script';
import type { ScriptedOpenAiServer } from '../llm/testing/scripted-openai-server';
import { estimateRequestTokens } from '../llm/token-estimate';
import { requestParamsOf } from '../llm/request-params';
import type { RequestParams } from '@shared/events';
import { assertRealInside, resolveInside } from '../util/contained-path';
import { readRegularFile } from '../util/read-regular-file';
import { demoScenarioFor } from './demo-resources';
import type { McpServerSettings } from '../config/schema';
import type { DemoMcpServer } from './demo-mcp-server';

export const DEMO_MODEL_NAME = 'demo (built-in, no API key set)';
/** The mcp demo's server (demo-mcp-server.ts): its tools reach the model as `mcp_demo_<tool>`. */
export const DEMO_MCP_SERVER_NAME = 'demo';

/** Scenario files are scripts of replies; 64 MB is far beyond any real one. */
const MAX_SCENARIO_BYTES = 64 * 1024 * 1024;

export interface ScriptedProviderOptions {
  /** relative scenario paths are resolved against this folder (WORKBENCH_HOME) */
  baseDir: string;
  env?: NodeJS.ProcessEnv;
}

export class ScriptedProvider {
  private readonly servers = new Map<
    string,
    Promise<{ server: ScriptedOpenAiServer; url: string }>
  >();
  private readonly env: NodeJS.ProcessEnv;
  private demoMcp: Promise<{ server: DemoMcpServer; settings: McpServerSettings }> | null = null;

  constructor(private readonly options: ScriptedProviderOptions) {
    this.env = options.env ?? process.env;
  }

  /**
   * A client for an explicit `api_type = "scripted"` profile. A scenario file must lie
   * inside WORKBENCH_HOME (links followed): `scenario = "../../etc/passwd"` read a host
   * file and quoted it back in the error (issue 12 item 2).
   */
  client(profile: LlmProfile, agent: string): LlmClient {
    const file = this.scenarioFile(profile, agent);
    return new LazyScriptedClient(profile, () => this.urlFor(file, !profile.scenario));
  }

  /**
   * The base URL of the scripted server a profile runs on (its scenario, or the agent's
   * bundled demo when it names none), started on first use: the model gateway forwards
   * to it like to any OpenAI-compatible server.
   */
  serverUrl(profile: Pick<LlmProfile, 'scenario'>, agent: string): Promise<string> {
    return this.urlFor(this.scenarioFile(profile, agent), !profile.scenario);
  }

  private scenarioFile(profile: Pick<LlmProfile, 'scenario'>, agent: string): string {
    return profile.scenario
      ? resolveInside(this.options.baseDir, profile.scenario, 'The scenario file ([llm] scenario)')
      : demoScenarioFor(agent, this.env);
  }

  /** The built-in demo for an agent whose profile has no key. */
  demo(profile: LlmProfile, agent: string): LlmClient {
    return this.client(
      { ...profile, model: DEMO_MODEL_NAME, scenario: '', stream: true, maxRetries: 0 },
      agent,
    );
  }

  /**
   * The built-in MCP server the mcp agent's demo uses (demo-mcp-server.ts), started on
   * first use and shared by every demo run until the runtime is disposed.
   */
  demoMcpServer(): Promise<McpServerSettings> {
    if (!this.demoMcp) {
      const pending = import('./demo-mcp-server').then(async ({ DemoMcpServer }) => {
        const server = new DemoMcpServer();
        return { server, settings: await server.start() };
      });
      pending.catch(() => {
        if (this.demoMcp === pending) this.demoMcp = null;
      });
      this.demoMcp = pending;
    }
    return this.demoMcp.then((s) => s.settings);
  }

  async dispose(): Promise<void> {
    const all = [...this.servers.values()];
    this.servers.clear();
    const mcp = this.demoMcp;
    this.demoMcp = null;
    await Promise.allSettled([
      ...all.map(async (s) => (await s).server.close()),
      ...(mcp ? [mcp.then((s) => s.server.close())] : []),
    ]);
  }

  private urlFor(file: string, isBundled: boolean): Promise<string> {
    let pending = this.servers.get(file);
    if (!pending) {
      pending = this.start(file, isBundled);
      this.servers.set(file, pending);
      pending.catch(() => this.servers.delete(file));
    }
    return pending.then((s) => s.url);
  }

  private async start(file: string, isBundled: boolean) {
    let text: string;
    try {
      // A link inside the home may not lead out of it (a missing file is reported below).
      if (!isBundled && existsSync(file)) {
        assertRealInside(this.options.baseDir, file, 'The scenario file');
      }
      text = readRegularFile(file, MAX_SCENARIO_BYTES, 'The scenario file');
    } catch (error) {
      throw new Error(
        `Cannot use the scenario file ${file} (api_type = "scripted"): ${(error as Error).message}`,
        { cause: error },
      );
    }
    // Loaded here: the server and the scenario parser are only needed by scripted runs.
    const [{ parseScenarioFile, scenarioScript }, { ScriptedOpenAiServer }] = await Promise.all([
      import('../llm/testing/scenario-script'),
      import('../llm/testing/scripted-openai-server'),
    ]);
    const scenarios = parseScenarioFile(text, file);
    if (isBundled) applyDemoDelay(scenarios, this.env);
    const server = new ScriptedOpenAiServer(scenarioScript(scenarios), {
      host: '127.0.0.1',
      port: 0,
      // nobody reads them, and this server lives as long as the runtime (`serve`)
      recordRequests: false,
      ...(scenarios.pages ? { pages: scenarios.pages } : {}),
    });
    const url = await server.start();
    return { server, url };
  }
}

/** WORKBENCH_DEMO_DELAY_MS replaces the demo's pauses (tests make them short). */
function applyDemoDelay(file: ScenarioFile, env: NodeJS.ProcessEnv): void {
  const value = Number(env['WORKBENCH_DEMO_DELAY_MS']);
  if (!env['WORKBENCH_DEMO_DELAY_MS'] || !Number.isFinite(value) || value < 0) return;
  for (const scenario of file.scenarios) {
    for (const turn of scenario.turns) {
      if ('delayMs' in turn) turn.delayMs = value;
    }
  }
}

/** Starts the scenario's server on the first request, then talks to it like any model. */
class LazyScriptedClient implements LlmClient {
  readonly model: string;
  private inner: Promise<LazyOpenAiLlm> | null = null;

  constructor(
    private readonly profile: LlmProfile,
    private readonly url: () => Promise<string>,
  ) {
    this.model = profile.model;
  }

  async complete(request: ChatRequest, options?: ChatOptions): Promise<ChatResponse> {
    this.inner ??= this.url().then(
      (baseUrl) =>
        new LazyOpenAiLlm({ ...this.profile, baseUrl, apiKey: 'scripted', apiType: 'openai' }),
    );
    return (await this.inner).complete(request, options);
  }

  countTokens(request: ChatRequest): number {
    return estimateRequestTokens(request);
  }

  requestParams(): RequestParams {
    return requestParamsOf({ ...this.profile, apiType: 'openai' });
  }
}
