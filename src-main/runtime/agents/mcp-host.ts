/**
 * The run's side of what MCP servers ask the client (tools/mcp/mcp-run-host.ts): its
 * events, its model (or the `sampling_profile` named for the server, built like any of
 * the run's profiles by the run factory), the debugger's pause before a model call (point `sampling`), and
 * the person answering `ask_human`.
 */
import type { LlmClient } from '../llm/llm-client';
import type { McpRunHost } from '../tools/mcp/mcp-run-host';
import type { AgentBuildInput } from './build-input';

export function mcpRunHost(input: AgentBuildInput): McpRunHost {
  const { env, services } = input;
  const clients = new Map<string, LlmClient>();
  return {
    runId: env.runId,
    agent: input.name,
    emit: env.emit,
    human: services.human,
    llmFor(profile) {
      if (profile === undefined) return input.llm;
      let client = clients.get(profile);
      if (!client) {
        if (!input.modelFor) throw new Error(`No model profiles here for "${profile}".`);
        client = input.modelFor(profile);
        clients.set(profile, client);
      }
      return client;
    },
    pause: (agent, signal) => env.debug?.gate({ agent, point: 'sampling', signal }) ?? null,
  };
}
