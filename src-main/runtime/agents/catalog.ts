/**
 * How each agent is built for a run: its class, prompts and its own tool registry.
 * Tool sets are per instance, never shared (openmanus.md 7.2 item 8).
 */
import type { AgentName } from '@shared/domain/agent';
import { ToolCallAgent } from '../loop/toolcall-agent';
import { createTerminateTool } from '../tools/terminate';
import { createChatCompletionTool } from '../tools/create-chat-completion';
import { builtinDefinition } from './definitions/builtin-definitions';
import { renderTemplate } from './definitions/template';
import { buildBrowserAgent } from './browser-agent';
import { buildMcpAgent } from './mcp-agent';
import { ToolRegistry } from '../tools/tool-registry';
import { buildManusAgent } from './manus-agent';
import {
  specialToolNames,
  withExtraTools,
  type AgentBuildInput,
  type AgentBuilder,
  type BuiltAgent,
} from './build-input';
import { sandboxToolset, type SandboxToolset } from '../tools/sandbox/sandbox-toolset';
import { SANDBOX_NEED } from './sandbox-need';

export type { AgentBuildInput, AgentBuilder, AgentExtras, BuiltAgent } from './build-input';

function basicAgent(
  input: AgentBuildInput,
  systemPrompt: string,
  extra: SandboxToolset = { tools: [], dispose: async () => undefined },
): BuiltAgent {
  const tools = new ToolRegistry(withExtraTools(input, [...extra.tools, createTerminateTool()]));
  const agent = new ToolCallAgent(
    // every resolved run setting (max_steps, duplicate_threshold, max_messages,
    // max_observe, tool_choice, text_reply_policy) reaches the loop
    {
      ...input.settings,
      name: input.name,
      systemPrompt,
      specialToolNames: specialToolNames(input),
    },
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
  manus: buildManusAgent,
  swe: (input) =>
    basicAgent(
      input,
      renderTemplate(builtinDefinition('swe').system_prompt, {
        work_dir: input.config.sandbox.work_dir,
      }),
      // The shell is always needed: start the container while the model thinks.
      // Its only tools: a sandbox that cannot start ends the run (sandbox-outage.ts).
      sandboxToolset(input, ['bash', 'str_replace_editor'], {
        prewarm: true,
        need: SANDBOX_NEED.swe,
      }),
    ),
  browser: buildBrowserAgent,
  mcp: buildMcpAgent,
  // The bare ToolCallAgent, as in OpenManus: create_chat_completion and terminate.
  toolcall: (input) =>
    basicAgent(input, builtinDefinition('toolcall').system_prompt, {
      tools: [createChatCompletionTool()],
      dispose: async () => undefined,
    }),
};

/** Builds `name`'s agent, with the caller's extra tools and special tool names. */
export function buildAgent(name: AgentName, input: AgentBuildInput): Promise<BuiltAgent> {
  return Promise.resolve(AGENT_BUILDERS[name](input));
}
