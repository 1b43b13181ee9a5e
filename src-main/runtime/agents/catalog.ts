/**
 * How each agent is built for a run: its class, prompts and its own tool registry.
 * Tool sets are per instance, never shared (openmanus.md 7.2 item 8).
 */
import type { AgentName } from '@shared/domain/agent';
import type { AgentEnvironment } from '../agent/base-agent';
import { ToolCallAgent } from '../agent/toolcall-agent';
import type { AgentRunSettings, WorkbenchConfig } from '../config/schema';
import type { LlmClient } from '../llm/llm-client';
import type { RuntimeServices } from '../services';
import type { Session } from '../session/session';
import { createTerminateTool } from '../tools/terminate';
import { createChatCompletionTool } from '../tools/create-chat-completion';
import { TOOLCALL_SYSTEM_PROMPT } from './prompts/toolcall';
import { buildBrowserAgent } from '../tools/browser/browser-agent';
import { buildMcpAgent } from '../tools/mcp/mcp-agent';
import { ToolRegistry } from '../tools/tool-registry';
import { sandboxToolset, type SandboxToolset } from '../tools/sandbox/sandbox-toolset';

export interface AgentBuildInput {
  name: AgentName;
  llm: LlmClient;
  settings: AgentRunSettings;
  config: WorkbenchConfig;
  session: Session;
  services: RuntimeServices;
  env: AgentEnvironment;
}

/** An agent ready to run, and what to release when its run is over. */
export interface BuiltAgent {
  agent: ToolCallAgent;
  dispose(): Promise<void>;
}

export type AgentBuilder = (input: AgentBuildInput) => BuiltAgent | Promise<BuiltAgent>;

function basicAgent(
  input: AgentBuildInput,
  systemPrompt: string,
  extra: SandboxToolset = { tools: [], dispose: async () => undefined },
): BuiltAgent {
  const tools = new ToolRegistry([...extra.tools, createTerminateTool()]);
  const agent = new ToolCallAgent(
    // every resolved run setting (max_steps, duplicate_threshold, max_messages,
    // max_observe, tool_choice, text_reply_policy) reaches the loop
    { ...input.settings, name: input.name, systemPrompt },
    { llm: input.llm, tools },
    input.env,
  );
  return {
    agent,
    dispose: async () => {
      try {
        await tools.dispose();
      } finally {
        await extra.dispose();
      }
    },
  };
}

export const AGENT_BUILDERS: Record<AgentName, AgentBuilder> = {
  manus: (input) =>
    basicAgent(
      input,
      'You are Manus, a versatile agent. Call terminate when the task is done.',
      sandboxToolset(input, ['python_execute']),
    ),
  swe: (input) =>
    basicAgent(
      input,
      'You are a software engineering agent. Call terminate when the task is done.',
      // The shell is always needed: start the container while the model thinks.
      sandboxToolset(input, ['bash', 'str_replace_editor'], { prewarm: true }),
    ),
  browser: buildBrowserAgent,
  mcp: buildMcpAgent,
  // The bare ToolCallAgent, as in OpenManus: create_chat_completion and terminate.
  toolcall: (input) =>
    basicAgent(input, TOOLCALL_SYSTEM_PROMPT, {
      tools: [createChatCompletionTool()],
      dispose: async () => undefined,
    }),
};

/** For the Manus entry: the browser tool and every configured MCP server's tools. */
export { browserAndMcpTools } from '../tools/mcp/manus-extras';
