/**
 * What the runtime is made of, built once by `createRuntime` (the composition root) and
 * handed to the run factory and the agent builders. Tests build their own.
 */
import type { LlmClient } from '../llm/llm-client';
import type { LlmProfile, WorkbenchConfig } from '../config/schema';
import type { SessionRegistry } from '../session/session';
import type { ConfigService } from '../config/config-service';
import type { HumanBroker } from '../tools/human-broker';
import type { SandboxManager } from '../sandbox/sandbox-manager';

import type { ScriptedProvider } from '../demo/scripted-provider';
import type { ModelGates } from '../llm/model-gates';
import type { SignInRequest } from '../tools/mcp/mcp-oauth';

export interface RuntimeServices {
  /** WORKBENCH_HOME: config.toml, runs/, workspaces/ */
  home: string;
  /** the effective config, read when a run starts so saved changes apply to the next run */
  loadConfig(): WorkbenchConfig;
  sessions: SessionRegistry;
  /** builds the model client for a profile that has a key (or needs none) */
  createLlm(profile: LlmProfile): LlmClient;
  /** reads and writes config.toml; resolves profiles with their stored keys */
  config: ConfigService;
  /** where `ask_human` puts its question: `human.ask({runId, toolCallId, question, signal, emit})` */
  human: HumanBroker;
  /** owns the sandbox containers: one per session, removed on session close and app quit */
  sandboxes: SandboxManager;
  /** api_type = "scripted" and the built-in demo (profiles with no API key) */
  scripted: ScriptedProvider;
  /** per-profile gates: `[llm.NAME] max_concurrency` and 429 rests (absent in some tests) */
  modelGates?: ModelGates;
  /**
   * shows an MCP server's OAuth sign-in page to the user (the desktop app: the system
   * browser; the CLI: the terminal and xdg-open); absent, such a server cannot sign in
   */
  openUrl?: (request: SignInRequest) => void | Promise<void>;
}
